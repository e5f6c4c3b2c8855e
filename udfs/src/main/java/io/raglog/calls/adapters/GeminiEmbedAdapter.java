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

/**
 * Google's Gemini embeddings: {@code …/models/text-embedding-004:embedContent} (one {@code content}) and
 * {@code :batchEmbedContents} ({@code requests}, each with its {@code content}), as the Gemini API and Vertex AI
 * serve them. A {@code taskType} of {@code RETRIEVAL_DOCUMENT} says the texts are documents being indexed;
 * {@code RETRIEVAL_QUERY} a query. Vectors come back as {@code embedding.values} or {@code embeddings[].values}.
 */
public final class GeminiEmbedAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "gemini.embed";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.isPost() && (e.pathEndsWith(":embedContent") || e.pathEndsWith(":batchEmbedContents"));
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        JsonNode requests = Bodies.array(request, "requests");
        List<JsonNode> items = new ArrayList<>();
        if (requests != null) {
            requests.forEach(items::add);
        } else {
            items.add(request);
        }
        List<String> texts = new ArrayList<>();
        String taskType = null;
        for (int i = 0; i < items.size(); i++) {
            texts.add(text(items.get(i).path("content"), i));
            taskType = taskType != null ? taskType : Bodies.label(items.get(i), "taskType");
        }
        String why = IndexBuilding.reasonFor(taskType, texts);
        if (why != null) {
            return new NotARunCall(name(), why);
        }
        String model = Endpoint.of(call).modelBeforeMethod();
        if (!Bodies.succeeded(call)) {
            return new EmbedDetail(name(), model, List.copyOf(texts), List.of(), TokenUsage.UNKNOWN);
        }
        JsonNode reply = Bodies.responseJson(call);
        List<float[]> vectors = new ArrayList<>();
        JsonNode embeddings = Bodies.array(reply, "embeddings");
        if (embeddings != null) {
            for (JsonNode embedding : embeddings) {
                vectors.add(Vectors.decode(embedding.get("values"), "embeddings[].values"));
            }
        } else {
            vectors.add(Vectors.decode(reply.path("embedding").get("values"), "embedding.values"));
        }
        if (vectors.size() != texts.size()) {
            throw new AdapterException(vectors.size() + " vectors for " + texts.size() + " texts");
        }
        return new EmbedDetail(name(), model, List.copyOf(texts), vectors, TokenUsage.UNKNOWN);
    }

    /** A content's text parts, joined by new lines, as the model embeds them. */
    static String text(JsonNode content, int i) throws AdapterException {
        StringBuilder sb = new StringBuilder();
        JsonNode parts = Bodies.asArray(content.get("parts"), "requests[" + i + "].content.parts");
        if (parts != null) {
            for (JsonNode part : parts) {
                if (part.path("text").isTextual()) {
                    sb.append(sb.length() > 0 ? "\n" : "").append(part.get("text").textValue());
                }
            }
        }
        return sb.toString();
    }
}
