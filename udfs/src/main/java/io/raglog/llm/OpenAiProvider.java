package io.raglog.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.Json;
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
    protected ObjectNode body(ChatRequest request) {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("model", settings.model());
        body.put("temperature", 0);
        body.put("max_tokens", request.maxOutputTokens());
        body.putObject("response_format").put("type", "json_object");
        var messages = body.putArray("messages");
        messages.addObject().put("role", "system").put("content", request.system());
        messages.addObject().put("role", "user").put("content", request.user());
        return body;
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
