package io.raglog.simulator.profile;

import com.fasterxml.jackson.databind.node.TextNode;
import io.raglog.schemas.CallEvent;
import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.corpus.ChunkIndex;
import io.raglog.simulator.pipeline.AnswerStyle;
import io.raglog.simulator.pipeline.GeneratorSkill;
import io.raglog.simulator.pipeline.Mix;
import io.raglog.simulator.pipeline.PipelineStyle;
import io.raglog.simulator.pipeline.Rand;
import io.raglog.simulator.pipeline.RelevanceGate;
import io.raglog.simulator.pipeline.RewriteStyle;
import io.raglog.simulator.pipeline.RunOutcome;
import io.raglog.simulator.pipeline.StackShape;
import io.raglog.simulator.wire.Anthropic;
import io.raglog.simulator.wire.Ids;
import io.raglog.simulator.wire.Nodes;
import io.raglog.simulator.wire.OpenAi;
import io.raglog.simulator.wire.Stores;
import io.raglog.simulator.wire.Tokens;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Held out for evaluation, never trained on (not part of {@code --profile all}): a pipeline with its own relevance
 * gate before generation. The question is embedded as it is (OpenAI, 384 dimensions), searched in Pinecone, reranked
 * by Cohere; then Claude Haiku is asked whether the reranked chunks suffice (SUFFICIENT or INSUFFICIENT), and only
 * when it says they do does Claude Sonnet answer, from the chunks as XML documents, streamed. A run the gate stopped
 * ends at the gate: no generator call. No run hint.
 */
public final class UnseenGatedClaudeProfile implements Profile {

    static final String OPENAI = "https://api.openai.com";
    static final String PINECONE = "https://policy-chunks-7d41e0b.svc.us-east1-gcp.pinecone.io";
    static final String NAMESPACE = "handbook";
    static final String ANTHROPIC = "https://api.anthropic.com/v1/messages";
    static final String GATE_MODEL = "claude-3-5-haiku-20241022";
    static final String ANSWER_MODEL = "claude-sonnet-4-20250514";
    static final String ANSWER_SYSTEM = "You answer employees' questions from the documents provided. Be direct. If "
            + "the documents do not answer, say that you could not find it.";
    static final int DIMENSIONS = 384;

    private static final StackShape SHAPE = new StackShape(false, 8, 4, 600, GeneratorSkill.FRONTIER);

    static final List<String> REFUSALS = List.of(
            "I couldn't find that in the documents I have.",
            "The documents provided don't say.",
            "I wasn't able to find an answer to that in the available documents.",
            "That isn't covered in the documents I was given.");

    private static final PipelineStyle STYLE = new PipelineStyle(Mix.of(RewriteStyle.KEYWORDS, 1.0),
            PipelineStyle.NONE, null,
            Mix.of(AnswerStyle.PLAIN, 0.35, AnswerStyle.PARAPHRASED, 0.35, AnswerStyle.VERBOSE, 0.2,
                    AnswerStyle.HEDGED, 0.1),
            REFUSALS, 0.01)
            // the gate stops a context that held the answer now and then, and lets through some that did not
            .withRelevanceGate(new RelevanceGate(0.05, 0.2));

    @Override
    public String name() {
        return "unseen-gated-claude";
    }

    @Override
    public String pipeline() {
        return "handbook-desk";
    }

    @Override
    public StackShape shape() {
        return SHAPE;
    }

    @Override
    public PipelineStyle style() {
        return STYLE;
    }

    @Override
    public boolean tracing() {
        return false;
    }

    @Override
    public Rendered renderRun(RunOutcome run, Instant arrival, SplittableRandom rng) {
        CallRecorder rec = new CallRecorder(pipeline(), null, Map.of(), new CallTimeline(arrival, rng), rng);
        String question = run.question().question();

        rec.record(OPENAI + "/v1/embeddings", Headers.openAiRequest(),
                OpenAi.embeddingsRequest("text-embedding-3-large", TextNode.valueOf(run.embedText()), DIMENSIONS,
                        "float"),
                CallRecorder.Reply.json(OpenAi.embeddingsResponse("text-embedding-3-large",
                        List.of(run.queryVector()), false, Tokens.count(run.embedText())),
                        Headers.openAiResponse(rng)), null, 85, 0.35);

        List<Stores.Match> matches = new ArrayList<>();
        for (ChunkIndex.Hit hit : run.retrieved()) {
            Chunk c = hit.chunk();
            matches.add(new Stores.Match(c.chunkId(), c.chunkId(), c.docId(), c.title(), c.text(), hit.score()));
        }
        rec.record(PINECONE + "/query", Headers.pinecone(),
                Stores.pineconeQueryRequest(NAMESPACE, run.queryVector(), SHAPE.topK()),
                CallRecorder.Reply.json(Stores.pineconeQueryResponse(NAMESPACE, matches, 5)), null, 30, 0.35);

        OpenAiQdrantCohereProfile.recordCohereRerank(rec, run, SHAPE.topN(), rng);

        String gatePrompt = gatePrompt(question, run.context());
        String verdict = run.stoppedByGate() ? RelevanceGate.INSUFFICIENT : RelevanceGate.SUFFICIENT;
        CallEvent gate = rec.record(ANTHROPIC, Headers.anthropicRequest(),
                Anthropic.request(GATE_MODEL, 10, null, List.of(Nodes.message("user", gatePrompt)), false, 0.0),
                CallRecorder.Reply.json(Anthropic.response("msg_01" + Ids.base62(rng, 22), GATE_MODEL, verdict,
                        Tokens.promptTokens(List.of(gatePrompt)), 3), Headers.anthropicResponse(rng)),
                null, 380, 0.3);
        if (run.stoppedByGate()) {
            return new Rendered(rec.calls(), List.of(), null, gate.eventId());
        }

        String prompt = documents(run.context()) + "\n\n" + question;
        int promptTokens = Tokens.promptTokens(List.of(ANSWER_SYSTEM, prompt));
        int answerTokens = Tokens.count(run.answer().text());
        long streamMs = Math.round(Rand.logNormal(rng, 700, 0.3) + answerTokens * Rand.logNormal(rng, 22, 0.2));
        CallEvent generator = rec.recordLasting(ANTHROPIC, Headers.anthropicRequest(),
                Anthropic.request(ANSWER_MODEL, 1024, ANSWER_SYSTEM, List.of(Nodes.message("user", prompt)), true,
                        0.2),
                CallRecorder.Reply.eventStream(Anthropic.stream("msg_01" + Ids.base62(rng, 22), ANSWER_MODEL,
                        run.answer().text(), promptTokens, answerTokens), Headers.anthropicResponse(rng)),
                null, streamMs);
        return new Rendered(rec.calls(), List.of(), null, generator.eventId());
    }

    /** The gate's prompt, as the "relevance gate before generation" pattern writes it. */
    static String gatePrompt(String question, List<Chunk> chunks) {
        StringBuilder sb = new StringBuilder("Given this query: \"").append(question)
                .append("\"\n\nAnd these retrieved chunks:\n");
        for (int i = 0; i < chunks.size(); i++) {
            sb.append(i == 0 ? "" : "\n\n").append(chunks.get(i).text());
        }
        return sb.append("\n\nDo these chunks contain sufficient information to answer the query accurately? ")
                .append("Respond with only: SUFFICIENT or INSUFFICIENT").toString();
    }

    /** The chunks as Anthropic's documentation suggests long documents go: XML, each with its index. */
    private static String documents(List<Chunk> context) {
        StringBuilder sb = new StringBuilder("<documents>");
        for (int i = 0; i < context.size(); i++) {
            sb.append("\n<document index=\"").append(i + 1).append("\">\n<source>").append(context.get(i).title())
                    .append("</source>\n<document_content>").append(context.get(i).text())
                    .append("</document_content>\n</document>");
        }
        return sb.append("\n</documents>").toString();
    }

    @Override
    public Rendered renderIndexing(List<Chunk> batch, ChunkIndex index, Instant at, SplittableRandom rng) {
        CallRecorder rec = new CallRecorder(pipeline(), null, Map.of(), new CallTimeline(at, rng), rng);
        IndexBatch b = IndexBatch.of(batch, index, Chunk::chunkId);
        rec.record(OPENAI + "/v1/embeddings", Headers.openAiRequest(),
                OpenAi.embeddingsRequest("text-embedding-3-large", Nodes.strings(b.texts()), DIMENSIONS, "float"),
                CallRecorder.Reply.json(OpenAi.embeddingsResponse("text-embedding-3-large", b.vectors(), false,
                        b.tokens()), Headers.openAiResponse(rng)), null, 240, 0.3);
        rec.record(PINECONE + "/vectors/upsert", Headers.pinecone(),
                Stores.pineconeUpsertRequest(NAMESPACE, b.points()),
                CallRecorder.Reply.json(Stores.pineconeUpsertResponse(b.points().size())), null, 90, 0.3);
        return new Rendered(rec.calls(), List.of(), null, null);
    }
}
