package io.raglog.simulator.profile;

import com.fasterxml.jackson.databind.node.ArrayNode;
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
 * A search-team stack: the OpenAI Responses API rewrites and answers (both through the raglog proxy, path prefix
 * {@code /openai}), OpenAI embeddings as floats, Elasticsearch kNN, Voyage rerank asked to score everything (no
 * {@code top_k}) with the pipeline keeping the best four itself — so the cut-off is visible only in what reaches the
 * prompt. No run hint.
 */
public final class ElasticVoyageResponsesProfile implements Profile {

    static final String PROXY_OPENAI = "http://raglog-proxy:8080/openai";
    static final String ELASTIC = "http://elasticsearch:9200";
    static final String INDEX = "squad-chunks";
    static final String FIELD = "embedding";
    static final String VOYAGE = "https://api.voyageai.com/v1/rerank";
    static final int DIMENSIONS = 384;

    private static final StackShape SHAPE = new StackShape(true, 10, 4, 800, GeneratorSkill.FRONTIER);

    @Override
    public String name() {
        return "elastic-voyage-responses";
    }

    @Override
    public String pipeline() {
        return "search-answers";
    }

    @Override
    public StackShape shape() {
        return SHAPE;
    }

    @Override
    public PipelineStyle style() {
        return Styles.ELASTIC_VOYAGE_RESPONSES;
    }

    @Override
    public boolean tracing() {
        return false;
    }

    @Override
    public Rendered renderRun(RunOutcome run, Instant arrival, SplittableRandom rng) {
        CallRecorder rec = new CallRecorder(pipeline(), null, Map.of(), new CallTimeline(arrival, rng), rng);
        String question = run.question().question();

        String rewriteInput = Prompts.rewriteUser(question);
        int rewritePrompt = Tokens.promptTokens(List.of(Prompts.REWRITE_SYSTEM, rewriteInput));
        int rewriteOut = Tokens.count(run.rewrite());
        rec.record(PROXY_OPENAI + "/v1/responses", Headers.openAiRequest(),
                OpenAi.responsesRequest("gpt-4.1-mini", Prompts.REWRITE_SYSTEM, TextNode.valueOf(rewriteInput), 0.0),
                CallRecorder.Reply.json(OpenAi.responsesResponse("resp_" + Ids.hex(rng, 48),
                        rec.timeline().now().getEpochSecond(), "gpt-4.1-mini-2025-04-14", Prompts.REWRITE_SYSTEM,
                        "msg_" + Ids.hex(rng, 48), run.rewrite(), rewritePrompt, rewriteOut, 0.0),
                        Headers.openAiResponse(rng)),
                OpenAiQdrantCohereProfile.openAiLimit("gpt-4.1-mini", rng), 520 + 15.0 * rewriteOut, 0.3);

        rec.record(PROXY_OPENAI + "/v1/embeddings", Headers.openAiRequest(),
                OpenAi.embeddingsRequest("text-embedding-3-small", TextNode.valueOf(run.embedText()), DIMENSIONS,
                        "float"),
                CallRecorder.Reply.json(OpenAi.embeddingsResponse("text-embedding-3-small",
                        List.of(run.queryVector()), false, Tokens.count(run.embedText())),
                        Headers.openAiResponse(rng)),
                OpenAiQdrantCohereProfile.openAiLimit("text-embedding-3-small", rng), 75, 0.35);

        List<Stores.Match> matches = new ArrayList<>();
        for (ChunkIndex.Hit hit : run.retrieved()) {
            Chunk c = hit.chunk();
            matches.add(new Stores.Match(c.chunkId(), c.chunkId(), c.docId(), c.title(), c.text(), hit.score()));
        }
        rec.record(ELASTIC + "/" + INDEX + "/_search", CallRecorder.headers("content-type", "application/json",
                        "accept", "application/vnd.elasticsearch+json; compatible-with=8",
                        "authorization", Headers.REDACTED, "user-agent", "elasticsearch-py/8.17.2 (Python/3.12.9)"),
                Stores.elasticKnnRequest(FIELD, run.queryVector(), SHAPE.topK(), 100),
                new CallRecorder.Reply(200, CallRecorder.headers("content-type",
                        "application/vnd.elasticsearch+json;compatible-with=8", "x-elastic-product", "Elasticsearch"),
                        Stores.elasticKnnResponse(INDEX, matches, 3 + rng.nextInt(12))),
                null, 22, 0.35);

        List<String> documents = new ArrayList<>();
        run.retrieved().forEach(h -> documents.add(h.chunk().text()));
        List<Rerankers.Result> all = new ArrayList<>();
        int tokens = 0;
        for (RankedPassage p : run.reranked()) {
            all.add(new Rerankers.Result(p.inputIndex(), p.chunk().text(), p.score()));
            tokens += Tokens.count(p.chunk().text()) + Tokens.count(run.query());
        }
        rec.record(VOYAGE, Headers.bearerJson("voyageai/0.3.2"),
                Rerankers.voyageRequest("rerank-2.5", run.query(), documents, null),
                CallRecorder.Reply.json(Rerankers.voyageResponse("rerank-2.5", all, tokens)),
                new CallRecorder.RateLimit(0.02, Rerankers::voyageRateLimit, 1000), 230, 0.3);

        String prompt = Prompts.contextQuestion(run.context(), question);
        ArrayNode input = Nodes.array();
        input.add(Nodes.message("user", prompt));
        int promptTokens = Tokens.promptTokens(List.of(Prompts.CONTEXT_ONLY_SYSTEM, prompt));
        int answerTokens = Tokens.count(run.answer().text());
        long ms = Math.round(Rand.logNormal(rng, 700, 0.3) + answerTokens * Rand.logNormal(rng, 16, 0.2));
        CallEvent generator = rec.recordLasting(PROXY_OPENAI + "/v1/responses", Headers.openAiRequest(),
                OpenAi.responsesRequest("gpt-4.1", Prompts.CONTEXT_ONLY_SYSTEM, input, 0.0),
                CallRecorder.Reply.json(OpenAi.responsesResponse("resp_" + Ids.hex(rng, 48),
                        rec.timeline().now().getEpochSecond(), "gpt-4.1-2025-04-14", Prompts.CONTEXT_ONLY_SYSTEM,
                        "msg_" + Ids.hex(rng, 48), run.answer().text(), promptTokens, answerTokens, 0.0),
                        Headers.openAiResponse(rng)),
                OpenAiQdrantCohereProfile.openAiLimit("gpt-4.1", rng), ms);
        return new Rendered(rec.calls(), List.of(), null, generator.eventId());
    }

    @Override
    public Rendered renderIndexing(List<Chunk> batch, ChunkIndex index, Instant at, SplittableRandom rng) {
        CallRecorder rec = new CallRecorder(pipeline(), null, Map.of(), new CallTimeline(at, rng), rng);
        IndexBatch b = IndexBatch.of(batch, index, Chunk::chunkId);
        rec.record(PROXY_OPENAI + "/v1/embeddings", Headers.openAiRequest(),
                OpenAi.embeddingsRequest("text-embedding-3-small", Nodes.strings(b.texts()), DIMENSIONS, "float"),
                CallRecorder.Reply.json(
                        OpenAi.embeddingsResponse("text-embedding-3-small", b.vectors(), false, b.tokens()),
                        Headers.openAiResponse(rng)), null, 260, 0.3);
        rec.record(ELASTIC + "/_bulk?refresh=false", CallRecorder.headers("content-type",
                        "application/vnd.elasticsearch+x-ndjson; compatible-with=8", "authorization", Headers.REDACTED,
                        "user-agent", "elasticsearch-py/8.17.2 (Python/3.12.9)"),
                TextNode.valueOf(Stores.elasticBulkRequest(INDEX, FIELD, b.points())),
                new CallRecorder.Reply(200, CallRecorder.headers("content-type",
                        "application/vnd.elasticsearch+json;compatible-with=8", "x-elastic-product", "Elasticsearch"),
                        Stores.elasticBulkResponse(INDEX, b.points(), 20 + rng.nextInt(40), rng.nextInt(50_000))),
                null, 45, 0.3);
        return new Rendered(rec.calls(), List.of(), null, null);
    }
}
