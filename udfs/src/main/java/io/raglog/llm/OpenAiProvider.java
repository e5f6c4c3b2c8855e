package io.raglog.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * OpenAI-compatible chat completions ({@code POST {base}/chat/completions}): OpenAI, Azure OpenAI's v1 API, vLLM,
 * Ollama, LiteLLM. Temperature 0 and JSON mode, so the same run gets the same answer as far as the server allows.
 */
public final class OpenAiProvider extends HttpChatProvider {

    public OpenAiProvider(LlmSettings settings) {
        super(settings);
    }

    @Override
    protected String url() {
        return settings.baseUrl() + "/chat/completions";
    }

    @Override
    protected Map<String, String> headers() {
        Map<String, String> h = new LinkedHashMap<>();
        if (settings.apiKey() != null) {
            h.put("authorization", "Bearer " + settings.apiKey().reveal());
            if (settings.baseUrl().contains(".azure.com")) {
                h.put("api-key", settings.apiKey().reveal()); // Azure OpenAI's own header
            }
        }
        return h;
    }

    @Override
    protected void writeBody(BodyParts body, ChatRequest request) throws IOException {
        JsonGenerator json = body.json();
        json.writeStartObject();
        json.writeStringField("model", settings.model());
        json.writeNumberField("temperature", 0);
        json.writeNumberField("max_tokens", request.maxOutputTokens());
        json.writeObjectFieldStart("response_format");
        json.writeStringField("type", "json_object");
        json.writeEndObject();
        json.writeArrayFieldStart("messages");
        message(body, "system", request.escapedSystem());
        message(body, "user", request.escapedUser());
        json.writeEndArray();
        json.writeEndObject();
    }

    @Override
    protected ChatReply reply(JsonNode body) {
        JsonNode content = body.path("choices").path(0).path("message").path("content");
        if (!content.isTextual()) {
            throw new BadReplyException("no choices[0].message.content in the reply");
        }
        JsonNode usage = body.get("usage");
        return new ChatReply(content.asText(), tokens(usage, "prompt_tokens"), tokens(usage, "completion_tokens"));
    }
}
