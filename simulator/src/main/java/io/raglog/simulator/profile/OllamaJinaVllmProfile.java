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
import io.raglog.simulator.wire.SelfHosted;
import io.raglog.simulator.wire.Tokens;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * An on-premises stack: Ollama rewrites and embeds, an in-process vector store (FAISS) searches — so no retrieval
 * call is ever logged and raglog must rebuild the retrieved passages from the reranker's input — Jina reranks, and a
 * vLLM server streams the answer. The service sends an explicit {@code x-raglog-run-id} header.
 */
public final class OllamaJinaVllmProfile implements Profile {

    static final String OLLAMA = "http://ollama:11434";
    static final String JINA = "https://api.jina.ai/v1/rerank";
    static final String VLLM = "http://vllm:8000/v1/chat/completions";
    static final String RUN_HEADER = "x-raglog-run-id";
    static final String CHAT_MODEL = "llama3.2:3b";
    static final String EMBED_MODEL = "nomic-embed-text";
    static final String RERANK_MODEL = "jina-reranker-v2-base-multilingual";
    static final String GENERATOR = "meta-llama/Llama-3.1-8B-Instruct";

    private static final StackShape SHAPE = new StackShape(true, 8, 4, 400, GeneratorSkill.SMALL_OPEN);

    @Override
    public String name() {
        return "ollama-jina-vllm";
    }

    @Override
    public String pipeline() {
        return "onprem-rag";
    }

    @Override
    public StackShape shape() {
        return SHAPE;
    }

    @Override
    public PipelineStyle style() {
        return Styles.OLLAMA_JINA_VLLM;
    }

    @Override
    public boolean tracing() {
        return false;
    }

    @Override
    public Rendered renderRun(RunOutcome run, Instant arrival, SplittableRandom rng) {
        String runId = Ids.uuid(rng);
        CallRecorder rec = new CallRecorder(pipeline(), runId, Map.of(RUN_HEADER, runId),
                new CallTimeline(arrival, rng), rng);
        String question = run.question().question();

        List<ObjectNode> rewriteMessages = List.of(Nodes.message("system", Prompts.REWRITE_SYSTEM),
                Nodes.message("user", Prompts.rewriteUser(question)));
        int rewritePrompt = Tokens.promptTokens(List.of(Prompts.REWRITE_SYSTEM, Prompts.rewriteUser(question)));
        int rewriteOut = Tokens.count(run.rewrite());
        long rewriteNs = Math.round(Rand.logNormal(rng, 650, 0.3) * 1_000_000);
        rec.record(OLLAMA + "/api/chat", Headers.plainJson("ollama-python/0.4.8"),
                SelfHosted.ollamaChatRequest(CHAT_MODEL, rewriteMessages, 0.0),
                CallRecorder.Reply.json(SelfHosted.ollamaChatResponse(CHAT_MODEL, rec.timeline().now(), run.rewrite(),
                        rewriteNs, rewritePrompt, rewritePrompt * 400_000L, rewriteOut, rewriteOut * 22_000_000L)),
                null, rewriteNs / 1_000_000.0, 0.1);

        long embedNs = Math.round(Rand.logNormal(rng, 22, 0.3) * 1_000_000);
        rec.record(OLLAMA + "/api/embed", Headers.plainJson("ollama-python/0.4.8"),
                SelfHosted.ollamaEmbedRequest(EMBED_MODEL, TextNode.valueOf(run.embedText())),
                CallRecorder.Reply.json(SelfHosted.ollamaEmbedResponse(EMBED_MODEL, List.of(run.queryVector()),
                        embedNs, 1_203_458L, Tokens.count(run.embedText()))),
                null, embedNs / 1_000_000.0, 0.1);

        // The in-process FAISS search takes a couple of milliseconds and leaves no call behind.
        rec.timeline().pause(1 + rng.nextInt(3));

        List<String> documents = new ArrayList<>();
        run.retrieved().forEach(h -> documents.add(h.chunk().text()));
        List<Rerankers.Result> results = new ArrayList<>();
        for (RankedPassage p : run.reranked().subList(0, SHAPE.topN())) {
            results.add(new Rerankers.Result(p.inputIndex(), p.chunk().text(), p.score()));
        }
        int rerankTokens = Tokens.count(run.query()) * documents.size();
        for (String d : documents) {
            rerankTokens += Tokens.count(d);
        }
        rec.record(JINA, Headers.bearerJson("python-requests/2.32.3"),
                Rerankers.jinaRequest(RERANK_MODEL, run.query(), documents, SHAPE.topN()),
                CallRecorder.Reply.json(Rerankers.jinaResponse(RERANK_MODEL, results, rerankTokens)),
                new CallRecorder.RateLimit(0.02, Rerankers::jinaRateLimit, 1000), 160, 0.3);

        String prompt = Prompts.contextQuestion(run.context(), question);
        int promptTokens = Tokens.promptTokens(List.of(Prompts.CONTEXT_ONLY_SYSTEM, prompt));
        int answerTokens = Tokens.count(run.answer().text());
        long streamMs = Math.round(Rand.logNormal(rng, 180, 0.3) + answerTokens * Rand.logNormal(rng, 14, 0.2));
        CallEvent generator = rec.recordLasting(VLLM, Headers.bearerJson("OpenAI/Python 1.82.0"),
                OpenAi.chatRequest(GENERATOR, List.of(Nodes.message("system", Prompts.CONTEXT_ONLY_SYSTEM),
                        Nodes.message("user", prompt)), true, 0.0),
                CallRecorder.Reply.eventStream(OpenAi.chatStream("chatcmpl-" + Ids.hex(rng, 32),
                        rec.timeline().now().getEpochSecond(), GENERATOR, null, run.answer().text(), promptTokens,
                        answerTokens)),
                null, streamMs);
        return new Rendered(rec.calls(), List.of(), runId, generator.eventId());
    }

    @Override
    public Rendered renderIndexing(List<Chunk> batch, ChunkIndex index, Instant at, SplittableRandom rng) {
        CallRecorder rec = new CallRecorder(pipeline(), null, Map.of(), new CallTimeline(at, rng), rng);
        IndexBatch b = IndexBatch.of(batch, index, Chunk::chunkId);
        long ns = Math.round(Rand.logNormal(rng, 180, 0.3) * 1_000_000);
        rec.record(OLLAMA + "/api/embed", Headers.plainJson("ollama-python/0.4.8"),
                SelfHosted.ollamaEmbedRequest(EMBED_MODEL, Nodes.strings(b.texts())),
                CallRecorder.Reply.json(
                        SelfHosted.ollamaEmbedResponse(EMBED_MODEL, b.vectors(), ns, 1_203_458L, b.tokens())),
                null, ns / 1_000_000.0, 0.1);
        return new Rendered(rec.calls(), List.of(), null, null);
    }
}
