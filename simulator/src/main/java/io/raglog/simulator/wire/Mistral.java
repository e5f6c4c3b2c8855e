package io.raglog.simulator.wire;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** Mistral's La Plateforme: OpenAI-shaped chat and embeddings, with its own fields (no fingerprint, an id on embeddings). */
public final class Mistral {

    private Mistral() {}

    public static ObjectNode chatResponse(String id, long created, String model, String content, int promptTokens,
            int completionTokens) {
        ObjectNode body = Nodes.object().put("id", id).put("object", "chat.completion").put("created", created)
                .put("model", model);
        ObjectNode choice = body.putArray("choices").addObject().put("index", 0);
        choice.putObject("message").put("role", "assistant").put("content", content).putNull("tool_calls")
                .put("prefix", false);
        choice.put("finish_reason", "stop");
        body.set("usage", OpenAi.usage(promptTokens, completionTokens));
        return body;
    }

    public static ObjectNode embeddingsResponse(String id, String model, List<float[]> vectors, int tokens) {
        ObjectNode body = OpenAi.embeddingsResponse(model, vectors, false, tokens);
        body.put("id", id);
        return body;
    }
}
