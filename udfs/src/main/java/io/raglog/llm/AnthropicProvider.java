package io.raglog.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.Json;
import java.util.LinkedHashMap;
import java.util.Map;

/** Anthropic Messages ({@code POST {base}/messages}, base {@code https://api.anthropic.com/v1}). */
public final class AnthropicProvider extends HttpChatProvider {

    static final String API_VERSION = "2023-06-01";

    public AnthropicProvider(LlmSettings settings) {
        super(settings);
    }

    @Override
    protected String url() {
        return settings.baseUrl() + "/messages";
    }

    @Override
    protected Map<String, String> headers() {
        Map<String, String> h = new LinkedHashMap<>();
        h.put("anthropic-version", API_VERSION);
        if (settings.apiKey() != null) {
            h.put("x-api-key", settings.apiKey().reveal());
        }
        return h;
    }

    @Override
    protected ObjectNode body(ChatRequest request) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("model", settings.model());
        body.put("max_tokens", request.maxOutputTokens());
        body.put("temperature", 0);
        body.put("system", request.system());
        body.putArray("messages").addObject().put("role", "user").put("content", request.user());
        return body;
    }

    @Override
    protected ChatReply reply(JsonNode body) {
        StringBuilder text = new StringBuilder();
        for (JsonNode block : body.path("content")) {
            if ("text".equals(block.path("type").asText())) {
                text.append(block.path("text").asText());
            }
        }
        if (text.isEmpty()) {
            throw new BadReplyException("no text content block in the reply");
        }
        JsonNode usage = body.get("usage");
        return new ChatReply(text.toString(), tokens(usage, "input_tokens"), tokens(usage, "output_tokens"));
    }
}
