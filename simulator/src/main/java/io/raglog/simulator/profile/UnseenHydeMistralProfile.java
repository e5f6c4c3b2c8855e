package io.raglog.simulator.profile;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.CallEvent;
import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.corpus.ChunkIndex;
import io.raglog.simulator.pipeline.AnswerStyle;
import io.raglog.simulator.pipeline.ContextBudget;
import io.raglog.simulator.pipeline.GeneratorSkill;
import io.raglog.simulator.pipeline.Mix;
import io.raglog.simulator.pipeline.PipelineStyle;
import io.raglog.simulator.pipeline.Rand;
import io.raglog.simulator.pipeline.RewriteStyle;
import io.raglog.simulator.pipeline.RunOutcome;
import io.raglog.simulator.pipeline.StackShape;
import io.raglog.simulator.wire.Ids;
import io.raglog.simulator.wire.Mistral;
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
 * Held out for evaluation, never trained on (not part of {@code --profile all}): a pipeline unlike the training ones
 * in what its models write, not only in its wire. Mistral writes a hypothetical answer to search with (HyDE), embeds
 * it with mistral-embed, searches Qdrant with no reranker, and answers at length with citations; it refuses in its
 * own words. No run hint.
 */
public final class UnseenHydeMistralProfile implements Profile {

    static final String MISTRAL = "https://api.mistral.ai/v1";
    static final String QDRANT = "http://qdrant.internal:6333";
    static final String COLLECTION = "kb_passages";
    static final String CHAT_MODEL = "mistral-small-latest";
    static final String EMBED_MODEL = "mistral-embed";
    static final String HYDE_SYSTEM = "Write a short passage that would answer the user's question. Do not say you"
            + " are unsure; write it as an encyclopedia would.";
    static final String ANSWER_SYSTEM = "You answer from the numbered sources below. Explain your answer and cite the"
            + " sources you used. If the sources do not answer the question, say so.";

    /** A mid-size model: a little more careless than the frontier ones, fond of whole sentences. */
    private static final GeneratorSkill SKILL = new GeneratorSkill(0.03, 0.06, 0.16, 0.24, 0.28, 0.7);
    private static final StackShape SHAPE = new StackShape(true, 5, null, 700, SKILL);

    static final List<String> REFUSALS = List.of(
            "Unfortunately, none of the retrieved documents address this question.",
            "I'm unable to answer that from the sources I have.",
            "The sources provided don't cover this topic, so I can't give a reliable answer.",
            "No relevant information was found in the retrieved documents.",
            "Based on the available sources, this cannot be determined.");

    private static final PipelineStyle STYLE = new PipelineStyle(
            Mix.of(RewriteStyle.HYDE, 0.8, RewriteStyle.PARAPHRASE, 0.2),
            PipelineStyle.NONE, null,
            Mix.of(AnswerStyle.VERBOSE, 0.45, AnswerStyle.CITED, 0.4, AnswerStyle.LIST, 0.1, AnswerStyle.HEDGED, 0.05),
            REFUSALS, 0.01)
            // a 700-piece context budget that cuts the overflowing source, best source last (next to the question)
            .withContextBudget(new ContextBudget(700, true, ContextBudget.Order.BEST_LAST));

    @Override
    public String name() {
        return "unseen-hyde-mistral";
    }

    @Override
    public String pipeline() {
        return "mistral-kb";
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

        List<ObjectNode> hydeMessages = List.of(Nodes.message("system", HYDE_SYSTEM), Nodes.message("user", question));
        int hydePrompt = Tokens.promptTokens(List.of(HYDE_SYSTEM, question));
        int hydeOut = Tokens.count(run.rewrite());
        rec.record(MISTRAL + "/chat/completions", Headers.bearerJson("mistral-client-python/1.5.0"),
                OpenAi.chatRequest(CHAT_MODEL, hydeMessages, false, 0.7),
                CallRecorder.Reply.json(Mistral.chatResponse(Ids.hex(rng, 32), rec.timeline().now().getEpochSecond(),
                        CHAT_MODEL, run.rewrite(), hydePrompt, hydeOut)),
                null, 520 + 16.0 * hydeOut, 0.3);

        rec.record(MISTRAL + "/embeddings", Headers.bearerJson("mistral-client-python/1.5.0"),
                OpenAi.embeddingsRequest(EMBED_MODEL, Nodes.strings(List.of(run.embedText())), null, null),
                CallRecorder.Reply.json(Mistral.embeddingsResponse(Ids.hex(rng, 32), EMBED_MODEL,
                        List.of(run.queryVector()), Tokens.count(run.embedText()))),
                null, 95, 0.35);

        List<Stores.Match> matches = new ArrayList<>();
        run.retrieved().forEach(hit -> matches.add(new Stores.Match(Ids.pointId(COLLECTION, hit.chunk().chunkId()),
                hit.chunk().chunkId(), hit.chunk().docId(), hit.chunk().title(), hit.chunk().text(), hit.score())));
        rec.record(QDRANT + "/collections/" + COLLECTION + "/points/search", Headers.plainJson("python-httpx/0.28.1"),
                Stores.qdrantSearchRequest(run.queryVector(), SHAPE.topK()),
                CallRecorder.Reply.json(Stores.qdrantSearchResponse(matches, 0.001 + rng.nextDouble() * 0.003)),
                null, 11, 0.4);

        String prompt = numberedSources(run.context()) + "\n\nQuestion: " + question;
        int promptTokens = Tokens.promptTokens(List.of(ANSWER_SYSTEM, prompt));
        int answerTokens = Tokens.count(run.answer().text());
        CallEvent generator = rec.record(MISTRAL + "/chat/completions",
                Headers.bearerJson("mistral-client-python/1.5.0"),
                OpenAi.chatRequest(CHAT_MODEL, List.of(Nodes.message("system", ANSWER_SYSTEM),
                        Nodes.message("user", prompt)), false, 0.3),
                CallRecorder.Reply.json(Mistral.chatResponse(Ids.hex(rng, 32), rec.timeline().now().getEpochSecond(),
                        CHAT_MODEL, run.answer().text(), promptTokens, answerTokens)),
                null, 600 + 20.0 * answerTokens, 0.3);
        return new Rendered(rec.calls(), List.of(), null, generator.eventId());
    }

    private static String numberedSources(List<Chunk> context) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < context.size(); i++) {
            sb.append(i == 0 ? "" : "\n\n").append("Source [").append(i + 1).append("]: ").append(context.get(i).text());
        }
        return sb.toString();
    }

    @Override
    public Rendered renderIndexing(List<Chunk> batch, ChunkIndex index, Instant at, SplittableRandom rng) {
        CallRecorder rec = new CallRecorder(pipeline(), null, Map.of(), new CallTimeline(at, rng), rng);
        IndexBatch b = IndexBatch.of(batch, index, c -> Ids.pointId(COLLECTION, c.chunkId()));
        long ms = Math.round(Rand.logNormal(rng, 300, 0.3));
        rec.record(MISTRAL + "/embeddings", Headers.bearerJson("mistral-client-python/1.5.0"),
                OpenAi.embeddingsRequest(EMBED_MODEL, Nodes.strings(b.texts()), null, null),
                CallRecorder.Reply.json(
                        Mistral.embeddingsResponse(Ids.hex(rng, 32), EMBED_MODEL, b.vectors(), b.tokens())),
                null, ms, 0.2);
        rec.recordPut(QDRANT + "/collections/" + COLLECTION + "/points?wait=true",
                Headers.plainJson("python-httpx/0.28.1"), Stores.qdrantUpsertRequest(b.points()),
                CallRecorder.Reply.json(Stores.qdrantUpsertResponse(rng.nextInt(100_000), 0.005)), 30);
        return new Rendered(rec.calls(), List.of(), null, null);
    }
}
