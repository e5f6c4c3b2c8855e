package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ChatMessage;
import java.util.ArrayList;
import java.util.List;

/** Reads OpenAI-shaped {@code messages} arrays (OpenAI, Azure, vLLM, LiteLLM, Ollama's native chat too). */
public final class ChatMessages {

    private ChatMessages() {}

    public static List<ChatMessage> openAi(JsonNode messages) throws AdapterException {
        if (messages == null || !messages.isArray()) {
            throw new AdapterException("'messages' is " + Bodies.describe(messages) + ", expected an array");
        }
        List<ChatMessage> out = new ArrayList<>(messages.size());
        int i = 0;
        for (JsonNode m : messages) {
            if (!m.isObject()) {
                throw new AdapterException("'messages[" + i + "]' is " + Bodies.describe(m) + ", expected an object");
            }
            String role = Bodies.text(m, "role");
            String content = Bodies.contentText(m.get("content"), "messages[" + i + "].content");
            if (content.isEmpty() && m.has("tool_calls")) {
                content = toolCallArguments(m.get("tool_calls"));
            }
            out.add(new ChatMessage(role == null ? "user" : role, content));
            i++;
        }
        return out;
    }

    /**
     * The arguments of the tool calls an assistant message made, joined: a rewriter that answers through function
     * calling (structured output) puts its queries there rather than in {@code content}.
     */
    public static String toolCallArguments(JsonNode toolCalls) {
        if (toolCalls == null || !toolCalls.isArray()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (JsonNode call : toolCalls) {
            JsonNode args = call.path("function").path("arguments");
            if (args.isTextual() && !args.textValue().isBlank()) {
                if (sb.length() > 0) {
                    sb.append('\n');
                }
                sb.append(args.textValue());
            }
        }
        return sb.toString();
    }
}
