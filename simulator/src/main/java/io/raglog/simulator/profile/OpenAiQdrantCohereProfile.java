package io.raglog.simulator.profile;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.raglog.schemas.CallEvent;
import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.corpus.ChunkIndex;
import io.raglog.simulator.pipeline.GeneratorSkill;
import io.raglog.simulator.pipeline.PipelineStyle;
import io.raglog.simulator.pipeline.Rand;
import io.raglog.simulator.pipeline.RankedPassage;
import io.raglog.simulator.pipeline.RunOutcome;
import io.raglog.simulator.pipeline.StackShape;
import io.raglog.simulator.wire.Ids;
import io.raglog.simulator.wire.Nodes;
import io.raglog.simulator.wire.OpenAi;
import io.raglog.simulator.wire.Rerankers;
import io.raglog.simulator.wire.Stores;
import io.raglog.simulator.wire.Tokens;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A LangChain-style stack on hosted APIs: OpenAI rewrite, OpenAI embeddings (base64, as the SDK asks for by default),
 * Qdrant search, Cohere rerank v2, OpenAI chat streamed with usage. The service propagates W3C trace context, so
 * every call carries a {@code traceparent} and the run hint is its trace id.
 */
public final class OpenAiQdrantCohereProfile implements Profile {

    static final String OPENAI = "https://api.openai.com";
    static final String QDRANT = "http://qdrant:6333";
    static final String COLLECTION = "squad_chunks";
    static final String COHERE = "https://api.cohere.com/v2/rerank";
    static final int DIMENSIONS = 384;

    private static final StackShape SHAPE = new StackShape(true, 10, 3, 512, GeneratorSkill.FRONTIER);
    private static final double RATE_LIMITED = 0.02;

    @Override
    public String name() {
        return "openai-qdrant-cohere";
    }

    @Override
    public String pipeline() {
        return "support-assistant";
    }

    @Override
    public StackShape shape() {
        return SHAPE;
    }

    @Override
    public PipelineStyle style() {
        return Styles.OPENAI_QDRANT_COHERE;
    }

    @Override
    public boolean tracing() {
        return false;
    }

    @Override
    public Rendered renderRun(RunOutcome run, Instant arrival, SplittableRandom rng) {
        String traceId = Ids.hex(rng, 32);
        Map<String, String> hint = Map.of("traceparent", "00-" + traceId + "-" + Ids.hex(rng, 16) + "-01");
        CallRecorder rec = new CallRecorder(pipeline(), traceId, hint, new CallTimeline(arrival, rng), rng);
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
                openAiLimit("gpt-4o-mini", rng), 380 + 18.0 * rewriteOut, 0.3);

        int embedTokens = Tokens.count(run.embedText());
        rec.record(OPENAI + "/v1/embeddings", Headers.openAiRequest(),
                OpenAi.embeddingsRequest("text-embedding-3-small", TextNode.valueOf(run.embedText()), DIMENSIONS,
                        "base64"),
                CallRecorder.Reply.json(OpenAi.embeddingsResponse("text-embedding-3-small",
                        List.of(run.queryVector()), true, embedTokens), Headers.openAiResponse(rng)),
                openAiLimit("text-embedding-3-small", rng), 70, 0.35);

        List<Stores.Match> matches = new ArrayList<>();
        for (ChunkIndex.Hit hit : run.retrieved()) {
            Chunk c = hit.chunk();
            matches.add(new Stores.Match(Ids.pointId(COLLECTION, c.chunkId()), c.chunkId(), c.docId(), c.title(),
                    c.text(), hit.score()));
        }
        rec.record(QDRANT + "/collections/" + COLLECTION + "/points/search", Headers.plainJson("python-client/1.14.2"),
                Stores.qdrantSearchRequest(run.queryVector(), SHAPE.topK()),
                CallRecorder.Reply.json(Stores.qdrantSearchResponse(matches, 0.0009 + rng.nextDouble() * 0.002)),
                null, 9, 0.4);

        recordCohereRerank(rec, run, SHAPE.topN(), rng);
        CallEvent generator = recordStreamedAnswer(rec, run, question, rng);
        return new Rendered(rec.calls(), List.of(), traceId, generator.eventId());
    }

    /** Cohere's /v2/rerank over the retrieved passages, the top n kept, as LangChain's CohereRerank sends it. */
    static void recordCohereRerank(CallRecorder rec, RunOutcome run, int topN, SplittableRandom rng) {
        List<String> documents = new ArrayList<>();
        run.retrieved().forEach(h -> documents.add(h.chunk().text()));
        List<Rerankers.Result> results = new ArrayList<>();
        for (RankedPassage p : run.reranked().subList(0, topN)) {
            results.add(new Rerankers.Result(p.inputIndex(), p.chunk().text(), p.score()));
        }
        rec.record(COHERE, Headers.bearerJson("cohere-python/5.15.0"),
                Rerankers.cohereRequest("rerank-v3.5", run.query(), documents, topN),
                CallRecorder.Reply.json(Rerankers.cohereResponse(Ids.uuid(rng), results, 1),
                        "x-trial-endpoint-call-remaining", "999", "x-endpoint-monthly-call-limit", "1000"),
                new CallRecorder.RateLimit(RATE_LIMITED, Rerankers::cohereRateLimit, 1000), 190, 0.3);
    }

    /** gpt-4o answering LangChain's stuff prompt, streamed with usage: the generator call. */
    static CallEvent recordStreamedAnswer(CallRecorder rec, RunOutcome run, String question, SplittableRandom rng) {
        String prompt = Prompts.langChainStuff(run.context(), question);
        int promptTokens = Tokens.promptTokens(List.of(prompt));
        int answerTokens = Tokens.count(run.answer().text());
        long streamMs = Math.round(Rand.logNormal(rng, 420, 0.3) + answerTokens * Rand.logNormal(rng, 18, 0.2));
        return rec.recordLasting(OPENAI + "/v1/chat/completions", Headers.openAiRequest(),
                OpenAi.chatRequest("gpt-4o", List.of(Nodes.message("user", prompt)), true, 0.0),
                CallRecorder.Reply.eventStream(OpenAi.chatStream("chatcmpl-" + Ids.base62(rng, 29),
                        rec.timeline().now().getEpochSecond(), "gpt-4o-2024-08-06", "fp_" + Ids.hex(rng, 10),
                        run.answer().text(), promptTokens, answerTokens), Headers.openAiResponse(rng)),
                openAiLimit("gpt-4o", rng), streamMs);
    }

    static CallRecorder.RateLimit openAiLimit(String model, SplittableRandom rng) {
        long retryMs = 200 + rng.nextInt(1800);
        return new CallRecorder.RateLimit(RATE_LIMITED, () -> OpenAi.rateLimitError(model, 500, retryMs), retryMs);
    }

    @Override
    public Rendered renderIndexing(List<Chunk> batch, ChunkIndex index, Instant at, SplittableRandom rng) {
        CallRecorder rec = new CallRecorder(pipeline(), null, Map.of(), new CallTimeline(at, rng), rng);
        IndexBatch b = IndexBatch.of(batch, index, c -> Ids.pointId(COLLECTION, c.chunkId()));
        rec.record(OPENAI + "/v1/embeddings", Headers.openAiRequest(),
                OpenAi.embeddingsRequest("text-embedding-3-small", Nodes.strings(b.texts()), DIMENSIONS, "base64"),
                CallRecorder.Reply.json(
                        OpenAi.embeddingsResponse("text-embedding-3-small", b.vectors(), true, b.tokens()),
                        Headers.openAiResponse(rng)), null, 240, 0.3);
        rec.recordPut(QDRANT + "/collections/" + COLLECTION + "/points?wait=true",
                Headers.plainJson("python-client/1.14.2"), Stores.qdrantUpsertRequest(b.points()),
                CallRecorder.Reply.json(Stores.qdrantUpsertResponse(rng.nextInt(100_000), 0.004)), 25);
        rec.recordGet(QDRANT + "/collections/" + COLLECTION, Headers.plainJson("python-client/1.14.2"),
                CallRecorder.Reply.json(Stores.qdrantCollectionInfo(COLLECTION, index.chunks().size(), DIMENSIONS)),
                3);
        return new Rendered(rec.calls(), List.of(), null, null);
    }
}
