package io.raglog.simulator.profile;

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
import io.raglog.simulator.wire.OtlpSpan;
import io.raglog.simulator.wire.Tokens;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A LlamaIndex service instrumented with OpenInference that exports OTLP traces instead of going through the proxy:
 * one trace per question (CHAIN root; LLM rewrite; RETRIEVER with its EMBEDDING inside; RERANKER; LLM answer). raglog
 * turns each span into a call with event id {@code traceId:spanId} and the trace id as run hint. Embedding vectors
 * are not exported (the instrumentation's default for large payloads); the trace links the stages.
 */
public final class OtelLlamaIndexProfile implements Profile {

    public static final String SCOPE = "openinference.instrumentation.llama_index";
    public static final String SCOPE_VERSION = "4.3.1";
    static final String LLM_MODEL = "gpt-4o-mini";
    static final String EMBED_MODEL = "text-embedding-3-small";
    static final String RERANK_MODEL = "rerank-english-v3.0";

    private static final StackShape SHAPE = new StackShape(true, 6, 3, 600, GeneratorSkill.FRONTIER);

    @Override
    public String name() {
        return "otel-llamaindex";
    }

    @Override
    public String pipeline() {
        return "kb-llamaindex";
    }

    @Override
    public StackShape shape() {
        return SHAPE;
    }

    @Override
    public PipelineStyle style() {
        return Styles.OTEL_LLAMAINDEX;
    }

    @Override
    public boolean tracing() {
        return true;
    }

    @Override
    public Rendered renderRun(RunOutcome run, Instant arrival, SplittableRandom rng) {
        String traceId = Ids.hex(rng, 32);
        String rootId = Ids.hex(rng, 16);
        CallTimeline t = new CallTimeline(arrival, rng);
        List<OtlpSpan> spans = new ArrayList<>();
        String question = run.question().question();
        Instant rootStart = t.now();

        String rewriteUser = Prompts.rewriteUser(question);
        CallTimeline.Window rewrite = t.call(420 + 16.0 * Tokens.count(run.rewrite()), 0.3);
        spans.add(span(traceId, rootId, "OpenAI.chat", rewrite, llm(
                List.of("system", Prompts.REWRITE_SYSTEM, "user", rewriteUser), run.rewrite(),
                Tokens.promptTokens(List.of(Prompts.REWRITE_SYSTEM, rewriteUser)), Tokens.count(run.rewrite())), rng));

        String retrieverId = Ids.hex(rng, 16);
        Instant retrieveStart = t.now().plusMillis(1);
        CallTimeline.Window embed = t.call(70, 0.35);
        spans.add(span(traceId, retrieverId, "OpenAIEmbedding._get_query_embedding", embed, new OtlpSpan.Attributes()
                .put("openinference.span.kind", "EMBEDDING")
                .put("embedding.model_name", EMBED_MODEL)
                .put("embedding.embeddings.0.embedding.text", run.embedText())
                .build(), rng));
        t.pause(2 + rng.nextInt(4));
        OtlpSpan.Attributes retrieved = new OtlpSpan.Attributes()
                .put("openinference.span.kind", "RETRIEVER")
                .put("input.value", run.query());
        for (int i = 0; i < run.retrieved().size(); i++) {
            ChunkIndex.Hit hit = run.retrieved().get(i);
            document(retrieved, "retrieval.documents." + i, hit.chunk(), hit.score());
        }
        spans.add(new OtlpSpan(pipeline(), traceId, retrieverId, rootId, "VectorIndexRetriever.retrieve",
                retrieveStart, t.span(retrieveStart).end(), retrieved.build()));

        CallTimeline.Window rerank = t.call(180, 0.3);
        OtlpSpan.Attributes reranker = new OtlpSpan.Attributes()
                .put("openinference.span.kind", "RERANKER")
                .put("reranker.query", run.query())
                .put("reranker.model_name", RERANK_MODEL)
                .put("reranker.top_k", (long) SHAPE.topN());
        for (int i = 0; i < run.retrieved().size(); i++) {
            ChunkIndex.Hit hit = run.retrieved().get(i);
            document(reranker, "reranker.input_documents." + i, hit.chunk(), hit.score());
        }
        List<RankedPassage> kept = run.reranked().subList(0, SHAPE.topN());
        for (int i = 0; i < kept.size(); i++) {
            document(reranker, "reranker.output_documents." + i, kept.get(i).chunk(), kept.get(i).score());
        }
        spans.add(span(traceId, rootId, "CohereRerank.postprocess_nodes", rerank, reranker.build(), rng));

        String prompt = Prompts.llamaIndex(run.context(), question);
        int answerTokens = Tokens.count(run.answer().text());
        long ms = Math.round(Rand.logNormal(rng, 450, 0.3) + answerTokens * Rand.logNormal(rng, 18, 0.2));
        CallTimeline.Window answer = t.callLasting(ms);
        OtlpSpan generator = span(traceId, rootId, "OpenAI.chat", answer, llm(
                List.of("system", Prompts.LLAMA_INDEX_SYSTEM, "user", prompt), run.answer().text(),
                Tokens.promptTokens(List.of(Prompts.LLAMA_INDEX_SYSTEM, prompt)), answerTokens), rng);
        spans.add(generator);

        spans.add(new OtlpSpan(pipeline(), traceId, rootId, null, "RetrieverQueryEngine.query", rootStart,
                t.span(rootStart).end(), new OtlpSpan.Attributes()
                        .put("openinference.span.kind", "CHAIN")
                        .put("input.value", question)
                        .put("output.value", run.answer().text())
                        .build()));
        return new Rendered(List.of(), spans, traceId, traceId + ":" + generator.spanId());
    }

    private static void document(OtlpSpan.Attributes attrs, String prefix, Chunk c, double score) {
        attrs.put(prefix + ".document.id", c.chunkId())
                .put(prefix + ".document.content", c.text())
                .put(prefix + ".document.score", score)
                .put(prefix + ".document.metadata", Nodes.compact(Nodes.object().put("doc_id", c.docId())
                        .put("title", c.title())));
    }

    private static java.util.Map<String, Object> llm(List<String> roleContent, String output, int promptTokens,
            int completionTokens) {
        OtlpSpan.Attributes a = new OtlpSpan.Attributes()
                .put("openinference.span.kind", "LLM")
                .put("llm.provider", "openai")
                .put("llm.system", "openai")
                .put("llm.model_name", LLM_MODEL)
                .put("llm.invocation_parameters", "{\"temperature\": 0.0, \"model\": \"" + LLM_MODEL + "\"}");
        for (int i = 0; i < roleContent.size() / 2; i++) {
            a.put("llm.input_messages." + i + ".message.role", roleContent.get(2 * i));
            a.put("llm.input_messages." + i + ".message.content", roleContent.get(2 * i + 1));
        }
        return a.put("llm.output_messages.0.message.role", "assistant")
                .put("llm.output_messages.0.message.content", output)
                .put("llm.token_count.prompt", (long) promptTokens)
                .put("llm.token_count.completion", (long) completionTokens)
                .put("llm.token_count.total", (long) (promptTokens + completionTokens))
                .put("output.value", output)
                .build();
    }

    private OtlpSpan span(String traceId, String parentId, String name, CallTimeline.Window w,
            java.util.Map<String, Object> attributes, SplittableRandom rng) {
        return new OtlpSpan(pipeline(), traceId, Ids.hex(rng, 16), parentId, name, w.start(), w.end(), attributes);
    }

    @Override
    public Rendered renderIndexing(List<Chunk> batch, ChunkIndex index, Instant at, SplittableRandom rng) {
        String traceId = Ids.hex(rng, 32);
        CallTimeline t = new CallTimeline(at, rng);
        CallTimeline.Window w = t.call(240, 0.3);
        OtlpSpan.Attributes attrs = new OtlpSpan.Attributes()
                .put("openinference.span.kind", "EMBEDDING")
                .put("embedding.model_name", EMBED_MODEL);
        for (int i = 0; i < batch.size(); i++) {
            attrs.put("embedding.embeddings." + i + ".embedding.text", batch.get(i).text());
        }
        OtlpSpan span = new OtlpSpan(pipeline(), traceId, Ids.hex(rng, 16), null,
                "OpenAIEmbedding._get_text_embeddings", w.start(), w.end(), attrs.build());
        return new Rendered(List.of(), List.of(span), traceId, null);
    }
}
