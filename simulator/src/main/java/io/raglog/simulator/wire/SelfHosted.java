package io.raglog.simulator.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.List;

/** Self-hosted model servers: Hugging Face TEI and Ollama. */
public final class SelfHosted {

    private SelfHosted() {}

    public static ObjectNode teiEmbedRequest(JsonNode inputs) {
        ObjectNode body = Nodes.object();
        body.set("inputs", inputs);
        body.put("truncate", true);
        return body;
    }

    /** TEI answers a bare array of vectors, one per input. */
    public static ArrayNode teiEmbedResponse(List<float[]> vectors) {
        ArrayNode out = Nodes.array();
        vectors.forEach(v -> out.add(Nodes.floats(v)));
        return out;
    }

    public static ObjectNode ollamaEmbedRequest(String model, JsonNode input) {
        ObjectNode body = Nodes.object().put("model", model);
        body.set("input", input);
        return body;
    }

    public static ObjectNode ollamaEmbedResponse(String model, List<float[]> vectors, long totalNs, long loadNs,
            int promptEvalCount) {
        ObjectNode body = Nodes.object().put("model", model);
        ArrayNode embeddings = body.putArray("embeddings");
        vectors.forEach(v -> embeddings.add(Nodes.floats(v)));
        body.put("total_duration", totalNs).put("load_duration", loadNs).put("prompt_eval_count", promptEvalCount);
        return body;
    }

    public static ObjectNode ollamaChatRequest(String model, List<ObjectNode> messages, double temperature) {
        ObjectNode body = Nodes.object().put("model", model);
        ArrayNode msgs = body.putArray("messages");
        messages.forEach(msgs::add);
        body.put("stream", false);
        body.putObject("options").put("temperature", temperature);
        return body;
    }

    public static ObjectNode ollamaChatResponse(String model, Instant createdAt, String content, long totalNs,
            int promptEvalCount, long promptEvalNs, int evalCount, long evalNs) {
        ObjectNode body = Nodes.object().put("model", model).put("created_at", createdAt.toString());
        body.putObject("message").put("role", "assistant").put("content", content);
        body.put("done_reason", "stop").put("done", true).put("total_duration", totalNs)
                .put("load_duration", 21_734_125L).put("prompt_eval_count", promptEvalCount)
                .put("prompt_eval_duration", promptEvalNs).put("eval_count", evalCount).put("eval_duration", evalNs);
        return body;
    }
}
