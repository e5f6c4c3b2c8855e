package io.raglog.assemble;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.calls.CallDetail;
import io.raglog.calls.ChatDetail;
import io.raglog.calls.ChatDetails;
import io.raglog.calls.ChatMessage;
import io.raglog.calls.ChatRole;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.EmbedDetail;
import io.raglog.calls.RerankDetail;
import io.raglog.calls.RetrieveDetail;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.HttpRequest;
import io.raglog.schemas.HttpResponse;
import io.raglog.schemas.Passage;
import io.raglog.schemas.SchemaIds;
import io.raglog.schemas.Stage;
import io.raglog.schemas.TokenUsage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Builds classified calls of one simulated run the way adapters would produce them, so assembly is tested without
 * any vendor JSON. Times are seconds after a fixed epoch.
 */
final class TestCalls {

    static final Instant T0 = Instant.parse("2026-11-29T10:00:00Z");

    final String pipeline;
    final String hint;
    final String tag;
    final String question;
    final String query;
    final float[] vector;
    final List<Passage> retrieved;

    TestCalls(String pipeline, String hint, String tag, String question, String query, float[] vector,
            List<Passage> retrieved) {
        this.pipeline = pipeline;
        this.hint = hint;
        this.tag = tag;
        this.question = question;
        this.query = query;
        this.vector = vector;
        this.retrieved = retrieved;
    }

    static TestCalls run(String pipeline, String hint, String tag, int seed) {
        List<Passage> passages = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            passages.add(new Passage("doc-" + tag + "-" + i, "Passage " + i + " about topic " + tag
                    + " with fact number " + (seed * 10 + i) + ".", 0.9 - i * 0.1, i + 1));
        }
        float[] v = new float[8];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) Math.sin(seed * 7.0 + i);
        }
        return new TestCalls(pipeline, hint, tag, "What is the fact about topic " + tag + "?",
                "fact topic " + tag, v, passages);
    }

    /** Two runs of one pipeline whose calls interleave, in the order they end; beta's generator ends first. */
    static List<ClassifiedCall> interleaved(TestCalls a, TestCalls b) {
        return List.of(a.rewrite(0.0, 0.4), b.rewrite(0.1, 0.5), b.embed(0.5, 0.6), a.embed(0.45, 0.7),
                a.retrieve(0.7, 0.75), b.retrieve(0.6, 0.8), b.rerank(0.8, 1.0), a.rerank(0.75, 1.1),
                b.generate(1.0, 2.0), a.generate(1.1, 2.5));
    }

    static long ms(double seconds) {
        return T0.toEpochMilli() + Math.round(seconds * 1000);
    }

    private CallEvent event(String id, double start, double end, int status, ObjectNode body) {
        return new CallEvent(SchemaIds.CALL_V1, tag + "-" + id, pipeline, hint,
                Instant.ofEpochMilli(ms(start)), Instant.ofEpochMilli(ms(end)),
                new HttpRequest("POST", "https://example.test/" + id, Map.of(), body),
                new HttpResponse(status, Map.of(), null), "proxy");
    }

    private static ObjectNode body(String key, String value) {
        return JsonNodeFactory.instance.objectNode().put(key, value);
    }

    ClassifiedCall rewrite(double start, double end) {
        return rewrite("rewrite", start, end, 200);
    }

    ClassifiedCall rewrite(String id, double start, double end, int status) {
        List<ChatMessage> messages = List.of(new ChatMessage("system", "Rewrite the question as a search query."),
                new ChatMessage("user", "Question: " + question));
        CallDetail d = new ChatDetail("test.chat", "gpt-4o-mini", messages, status < 400 ? query : null,
                new TokenUsage(40, 6), ChatRole.REWRITE, question, null, List.of(), false);
        return new ClassifiedCall(event(id, start, end, status, body("q", question)), Stage.REWRITE, d);
    }

    ClassifiedCall embed(double start, double end) {
        return embed("embed", start, end, 200, query);
    }

    ClassifiedCall embed(String id, double start, double end, int status, String text) {
        CallDetail d = new EmbedDetail("test.embed", "text-embedding-3-small", List.of(text),
                status < 400 ? List.of(vector) : List.of(), new TokenUsage(5, null));
        return new ClassifiedCall(event(id, start, end, status, body("input", text)), Stage.EMBED, d);
    }

    ClassifiedCall retrieve(double start, double end) {
        CallDetail d = new RetrieveDetail("test.store", "qdrant", "kb", null, vector, 4, retrieved);
        return new ClassifiedCall(event("retrieve", start, end, 200, body("collection", "kb")), Stage.RETRIEVE, d);
    }

    /** The reranker keeps the top two: passages 2 and 0 in that order. */
    ClassifiedCall rerank(double start, double end) {
        List<String> docs = retrieved.stream().map(Passage::text).toList();
        CallDetail d = new RerankDetail("test.rerank", "rerank-v3.5", query, docs,
                List.of(new RerankDetail.RerankResult(2, 0.91), new RerankDetail.RerankResult(0, 0.55)), 2);
        return new ClassifiedCall(event("rerank", start, end, 200, body("query", query)), Stage.RERANK, d);
    }

    ClassifiedCall generate(double start, double end) {
        return generate("generate", start, end, 200, List.of(retrieved.get(2), retrieved.get(0)));
    }

    ClassifiedCall generateWithContext(double start, double end, List<Passage> context) {
        return generate("generate", start, end, 200, context);
    }

    /** A chat call whose role and question are read from its prompt, as an adapter reads them. */
    ClassifiedCall chat(String id, double start, double end, String prompt, String output) {
        ChatDetail d = ChatDetails.of("test.chat", "gpt-4o", List.of(new ChatMessage("user", prompt)), output,
                new TokenUsage(300, 20), false);
        Stage stage = d.role() == ChatRole.REWRITE ? Stage.REWRITE : Stage.GENERATE;
        return new ClassifiedCall(event(id, start, end, 200, body("prompt", prompt)), stage, d);
    }

    ClassifiedCall generate(String id, double start, double end, int status, List<Passage> context) {
        String contextText = String.join("\n\n", context.stream().map(Passage::text).toList());
        String prompt = "Context:\n" + contextText + "\n\nQuestion: " + question;
        List<ChatMessage> messages = List.of(new ChatMessage("user", prompt));
        CallDetail d = new ChatDetail("test.chat", "gpt-4o", messages,
                status < 400 ? "The fact is " + tag + "." : null, new TokenUsage(300, 12), ChatRole.GENERATE,
                question, contextText, context.stream().map(Passage::text).toList(), true);
        return new ClassifiedCall(event(id, start, end, status, body("prompt", prompt)), Stage.GENERATE, d);
    }
}
