package io.raglog.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
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
    protected void writeBody(BodyParts body, ChatRequest request) throws IOException {
        JsonGenerator json = body.json();
        json.writeStartObject();
        json.writeStringField("model", settings.model());
        json.writeNumberField("max_tokens", request.maxOutputTokens());
        json.writeNumberField("temperature", 0);
        json.writeFieldName("system");
        body.text(request.escapedSystem());
        json.writeArrayFieldStart("messages");
        message(body, "user", request.escapedUser());
        json.writeEndArray();
        json.writeEndObject();
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
