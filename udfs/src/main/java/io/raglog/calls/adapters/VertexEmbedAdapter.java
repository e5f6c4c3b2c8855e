package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.calls.EmbedDetail;
import io.raglog.calls.NotARunCall;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.TokenUsage;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Google's text embedding models through Vertex AI's prediction API
 * ({@code POST …/publishers/google/models/text-embedding-005:predict}, as the Vertex AI SDK's
 * {@code TextEmbeddingModel} and LangChain's {@code VertexAIEmbeddings} call them): an {@code instances[]} entry
 * per text, its {@code content} with a {@code task_type} ({@code taskType}) and, for a document, a {@code title};
 * a vector per text in {@code predictions[].embeddings.values}, the tokens it took in
 * {@code statistics.token_count}. A {@code RETRIEVAL_DOCUMENT} task or a title says the texts are documents being
 * indexed. The reply's {@code statistics.truncated} (the model cut a text to fit) has no place in the embed detail,
 * and is not read.
 *
 * <p>{@code :predict} serves every kind of model, so the path alone says little: an embedding model's path is
 * claimed when its instances are texts, a model deployed to an endpoint of its own ({@code endpoints/{id}:predict})
 * only when the body is recognisably an embedding request (texts with a task type, or a reply of embeddings).
 */
public final class VertexEmbedAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "vertex.embed";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        if (!e.isPost() || !e.pathEndsWith(":predict")) {
            return false;
        }
        JsonNode instances = Bodies.request(call).get("instances");
        if (!Bodies.everyElement(instances, i -> i.path("content").isTextual())) {
            return false;
        }
        String model = e.modelBeforeMethod();
        if (model != null) {
            return model.toLowerCase(Locale.ROOT).contains("embedding");
        }
        return Bodies.everyElement(instances, i -> taskType(i) != null)
                || Bodies.response(call).path("predictions").path(0).path("embeddings").isObject();
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode instances = Bodies.requireArray(Bodies.requestObject(call), "instances");
        List<String> texts = new ArrayList<>(instances.size());
        String taskType = null;
        String title = null;
        for (JsonNode instance : instances) {
            texts.add(Bodies.requireText(instance, "content"));
            taskType = taskType != null ? taskType : taskType(instance);
            title = title != null ? title : Bodies.label(instance, "title");
        }
        String why = IndexBuilding.reasonFor(taskType, texts);
        if (why == null) {
            why = IndexBuilding.reasonForTitle(title);
        }
        if (why != null) {
            return new NotARunCall(name(), why);
        }
        String model = Endpoint.of(call).modelBeforeMethod();
        if (!Bodies.succeeded(call)) {
            return new EmbedDetail(name(), model, List.copyOf(texts), List.of(), TokenUsage.UNKNOWN);
        }
        JsonNode predictions = Bodies.requireArray(Bodies.responseJson(call), "predictions");
        if (predictions.size() != texts.size()) {
            throw new AdapterException(predictions.size() + " predictions for " + texts.size() + " texts");
        }
        List<float[]> vectors = new ArrayList<>(texts.size());
        Integer tokens = null;
        for (int i = 0; i < predictions.size(); i++) {
            JsonNode embeddings = predictions.get(i).path("embeddings");
            vectors.add(Vectors.decode(embeddings.get("values"), "predictions[" + i + "].embeddings.values"));
            JsonNode count = embeddings.path("statistics").path("token_count");
            if (count.isNumber()) {
                tokens = (tokens == null ? 0 : tokens) + count.intValue();
            }
        }
        return new EmbedDetail(name(), model, List.copyOf(texts), List.copyOf(vectors),
                tokens == null ? TokenUsage.UNKNOWN : new TokenUsage(tokens, null));
    }

    /** An instance's {@code task_type}, which the SDKs write in either case of its name; null when it names none. */
    private static String taskType(JsonNode instance) {
        return Bodies.label(instance, Bodies.protoName(instance, "task_type"));
    }
}
