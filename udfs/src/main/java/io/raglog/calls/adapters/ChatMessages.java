package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ChatMessage;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

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
            String calls = m.has("tool_calls") ? toolCallArguments(m.get("tool_calls")) : "";
            if (!calls.isEmpty()) {
                content = calls; // an agent's turn that searched: what it asked of the tool, as its reply is read
            }
            out.add(new ChatMessage(role == null ? "user" : role, content));
            i++;
        }
        return out;
    }

    /**
     * The inputs of the tool calls a reply made, one to a line, each found at {@code input} in its part (Anthropic's
     * {@code tool_use}, Bedrock Converse's {@code toolUse}, Gemini's {@code functionCall}: {@code calls} picks the
     * object naming the call from a part, a missing node when the part is none). An agent's turn that calls its search
     * tool carries the query there, and the text beside it ("I'll search the filings…") only announces the call: such
     * a turn is read by what it asked of the tool (its run's rewrite), as OpenAI's function calls are.
     */
    public static String toolInputs(JsonNode parts, Function<JsonNode, JsonNode> calls, String input) {
        StringBuilder sb = new StringBuilder();
        if (parts != null && parts.isArray()) {
            for (JsonNode part : parts) {
                JsonNode args = calls.apply(part).path(input);
                if (args.isObject()) {
                    sb.append(sb.isEmpty() ? "" : "\n").append(args);
                }
            }
        }
        return sb.toString();
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
