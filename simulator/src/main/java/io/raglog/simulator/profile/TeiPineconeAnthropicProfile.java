package io.raglog.simulator.profile;

import com.fasterxml.jackson.databind.node.TextNode;
import io.raglog.schemas.CallEvent;
import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.corpus.ChunkIndex;
import io.raglog.simulator.pipeline.GeneratorSkill;
import io.raglog.simulator.pipeline.PipelineStyle;
import io.raglog.simulator.pipeline.Rand;
import io.raglog.simulator.pipeline.RunOutcome;
import io.raglog.simulator.pipeline.StackShape;
import io.raglog.simulator.wire.Anthropic;
import io.raglog.simulator.wire.Ids;
import io.raglog.simulator.wire.Nodes;
import io.raglog.simulator.wire.SelfHosted;
import io.raglog.simulator.wire.Stores;
import io.raglog.simulator.wire.Tokens;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A LlamaIndex-style stack with no rewriter and no reranker: the question embedded by a self-hosted TEI server,
 * Pinecone search, Anthropic Messages streamed through the raglog proxy (path prefix {@code /anthropic}). No run
 * hint: raglog must link this pipeline's calls by content.
 */
public final class TeiPineconeAnthropicProfile implements Profile {

    static final String TEI = "http://tei-embed:8080/embed";
    static final String PINECONE = "https://squad-chunks-3f9a2c1.svc.aped-4627-b74a.pinecone.io";
    static final String NAMESPACE = "squad";
    static final String ANTHROPIC = "http://raglog-proxy:8080/anthropic/v1/messages";
    static final String MODEL = "claude-sonnet-4-20250514";
    static final String SYSTEM = "You are a careful assistant for the documentation team. Answer briefly.";

    private static final StackShape SHAPE = new StackShape(false, 5, null, 1000, GeneratorSkill.FRONTIER);

    @Override
    public String name() {
        return "tei-pinecone-anthropic";
    }

    @Override
    public String pipeline() {
        return "docs-qa";
    }

    @Override
    public StackShape shape() {
        return SHAPE;
    }

    @Override
    public PipelineStyle style() {
        return Styles.TEI_PINECONE_ANTHROPIC;
    }

    @Override
    public boolean tracing() {
        return false;
    }

    @Override
    public Rendered renderRun(RunOutcome run, Instant arrival, SplittableRandom rng) {
        CallRecorder rec = new CallRecorder(pipeline(), null, Map.of(), new CallTimeline(arrival, rng), rng);
        String question = run.question().question();

        rec.record(TEI, Headers.plainJson("python-requests/2.32.3"),
                SelfHosted.teiEmbedRequest(TextNode.valueOf(run.embedText())),
                CallRecorder.Reply.json(SelfHosted.teiEmbedResponse(List.of(run.queryVector())),
                        "x-compute-type", "cpu", "x-compute-characters", Integer.toString(run.embedText().length())),
                null, 14, 0.35);

        List<Stores.Match> matches = new ArrayList<>();
        for (ChunkIndex.Hit hit : run.retrieved()) {
            Chunk c = hit.chunk();
            matches.add(new Stores.Match(c.chunkId(), c.chunkId(), c.docId(), c.title(), c.text(), hit.score()));
        }
        rec.record(PINECONE + "/query", Headers.pinecone(), Stores.pineconeQueryRequest(NAMESPACE, run.queryVector(),
                        SHAPE.topK()),
                CallRecorder.Reply.json(Stores.pineconeQueryResponse(NAMESPACE, matches, 6),
                        "x-pinecone-request-latency-ms", Integer.toString(8 + rng.nextInt(20))),
                null, 38, 0.35);

        String prompt = Prompts.llamaIndex(run.context(), question);
        int promptTokens = Tokens.promptTokens(List.of(SYSTEM, prompt));
        int answerTokens = Tokens.count(run.answer().text());
        long streamMs = Math.round(Rand.logNormal(rng, 650, 0.3) + answerTokens * Rand.logNormal(rng, 24, 0.2));
        CallEvent generator = rec.recordLasting(ANTHROPIC, Headers.anthropicRequest(),
                Anthropic.request(MODEL, 1024, SYSTEM, List.of(Nodes.message("user", prompt)), true, 0.0),
                CallRecorder.Reply.eventStream(Anthropic.stream("msg_01" + Ids.base62(rng, 22), MODEL,
                        run.answer().text(), promptTokens, answerTokens), Headers.anthropicResponse(rng)),
                new CallRecorder.RateLimit(0.02, Anthropic::rateLimitError, 1000 + rng.nextInt(2000)), streamMs);
        return new Rendered(rec.calls(), List.of(), null, generator.eventId());
    }

    @Override
    public Rendered renderIndexing(List<Chunk> batch, ChunkIndex index, Instant at, SplittableRandom rng) {
        CallRecorder rec = new CallRecorder(pipeline(), null, Map.of(), new CallTimeline(at, rng), rng);
        IndexBatch b = IndexBatch.of(batch, index, Chunk::chunkId);
        rec.record(TEI, Headers.plainJson("python-requests/2.32.3"),
                SelfHosted.teiEmbedRequest(Nodes.strings(b.texts())),
                CallRecorder.Reply.json(SelfHosted.teiEmbedResponse(b.vectors()), "x-compute-type", "cpu"),
                null, 120, 0.3);
        rec.record(PINECONE + "/vectors/upsert", Headers.pinecone(),
                Stores.pineconeUpsertRequest(NAMESPACE, b.points()),
                CallRecorder.Reply.json(Stores.pineconeUpsertResponse(b.points().size())), null, 90, 0.3);
        return new Rendered(rec.calls(), List.of(), null, null);
    }
}
