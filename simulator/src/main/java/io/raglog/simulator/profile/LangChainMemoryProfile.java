package io.raglog.simulator.profile;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.raglog.schemas.CallEvent;
import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.corpus.ChunkIndex;
import io.raglog.simulator.pipeline.GeneratorSkill;
import io.raglog.simulator.pipeline.PipelineStyle;
import io.raglog.simulator.pipeline.RunOutcome;
import io.raglog.simulator.pipeline.StackShape;
import io.raglog.simulator.wire.Ids;
import io.raglog.simulator.wire.Nodes;
import io.raglog.simulator.wire.OpenAi;
import io.raglog.simulator.wire.Tokens;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * LangChain's defaults on hosted APIs: OpenAI rewrite, OpenAI embeddings, LangChain's {@code InMemoryVectorStore}
 * (searched in process: no retrieval call, so raglog must rebuild the retrieved passages from the reranker's input),
 * Cohere rerank v2, OpenAI chat streamed. No run header and no trace context: runs are linked by content alone.
 */
public final class LangChainMemoryProfile implements Profile {

    static final String OPENAI = "https://api.openai.com";
    static final int DIMENSIONS = 384;

    private static final StackShape SHAPE = new StackShape(true, 8, 3, 512, GeneratorSkill.FRONTIER);

    @Override
    public String name() {
        return "langchain-memory";
    }

    @Override
    public String pipeline() {
        return "helpdesk-langchain";
    }

    @Override
    public StackShape shape() {
        return SHAPE;
    }

    @Override
    public PipelineStyle style() {
        return Styles.LANGCHAIN_MEMORY;
    }

    @Override
    public boolean tracing() {
        return false;
    }

    @Override
    public Rendered renderRun(RunOutcome run, Instant arrival, SplittableRandom rng) {
        CallRecorder rec = new CallRecorder(pipeline(), null, Map.of(), new CallTimeline(arrival, rng), rng);
        String question = run.question().question();

        List<ObjectNode> rewriteMessages = List.of(Nodes.message("system", Prompts.REWRITE_SYSTEM),
                Nodes.message("user", Prompts.rewriteUser(question)));
        int rewritePrompt = Tokens.promptTokens(List.of(Prompts.REWRITE_SYSTEM, Prompts.rewriteUser(question)));
        int rewriteOut = Tokens.count(run.rewrite());
        rec.record(OPENAI + "/v1/chat/completions", Headers.openAiRequest(),
                OpenAi.chatRequest("gpt-4o-mini", rewriteMessages, false, 0.0),
                CallRecorder.Reply.json(OpenAi.chatResponse("chatcmpl-" + Ids.base62(rng, 29),
                        rec.timeline().now().getEpochSecond(), "gpt-4o-mini-2024-07-18", "fp_" + Ids.hex(rng, 10),
                        run.rewrite(), rewritePrompt, rewriteOut), Headers.openAiResponse(rng)),
                OpenAiQdrantCohereProfile.openAiLimit("gpt-4o-mini", rng), 380 + 18.0 * rewriteOut, 0.3);

        int embedTokens = Tokens.count(run.embedText());
        rec.record(OPENAI + "/v1/embeddings", Headers.openAiRequest(),
                OpenAi.embeddingsRequest("text-embedding-3-small", TextNode.valueOf(run.embedText()), DIMENSIONS,
                        "base64"),
                CallRecorder.Reply.json(OpenAi.embeddingsResponse("text-embedding-3-small",
                        List.of(run.queryVector()), true, embedTokens), Headers.openAiResponse(rng)),
                OpenAiQdrantCohereProfile.openAiLimit("text-embedding-3-small", rng), 70, 0.35);

        // The in-memory store's cosine search takes a millisecond or two and leaves no call behind.
        rec.timeline().pause(1 + rng.nextInt(2));

        OpenAiQdrantCohereProfile.recordCohereRerank(rec, run, SHAPE.topN(), rng);
        CallEvent generator = OpenAiQdrantCohereProfile.recordStreamedAnswer(rec, run, question, rng);
        return new Rendered(rec.calls(), List.of(), null, generator.eventId());
    }

    @Override
    public Rendered renderIndexing(List<Chunk> batch, ChunkIndex index, Instant at, SplittableRandom rng) {
        return inProcessIndexing(pipeline(), batch, index, at, rng);
    }

    /**
     * Indexing into a store searched in process: the chunks embedded by OpenAI in one call, base64, and nothing else
     * on the wire.
     */
    static Rendered inProcessIndexing(String pipeline, List<Chunk> batch, ChunkIndex index, Instant at,
            SplittableRandom rng) {
        CallRecorder rec = new CallRecorder(pipeline, null, Map.of(), new CallTimeline(at, rng), rng);
        IndexBatch b = IndexBatch.of(batch, index, Chunk::chunkId);
        rec.record(OPENAI + "/v1/embeddings", Headers.openAiRequest(),
                OpenAi.embeddingsRequest("text-embedding-3-small", Nodes.strings(b.texts()), DIMENSIONS, "base64"),
                CallRecorder.Reply.json(
                        OpenAi.embeddingsResponse("text-embedding-3-small", b.vectors(), true, b.tokens()),
                        Headers.openAiResponse(rng)), null, 240, 0.3);
        return new Rendered(rec.calls(), List.of(), null, null);
    }
}
