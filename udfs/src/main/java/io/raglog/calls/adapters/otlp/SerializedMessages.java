package io.raglog.calls.adapters.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.ChatMessage;
import io.raglog.schemas.TokenUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Chat messages, completions and token counts as tracing SDKs serialize a framework's objects whole into one span
 * attribute (Langfuse's observation input and output, MLflow's span inputs and outputs), where the conventions
 * flatten them into keys of their own ({@link GenAiMessages}, OpenInference's indexed messages):
 *
 * <ul>
 *   <li>a message is OpenAI-shaped ({@code role}, {@code content}), or a LangChain message as pydantic dumps it
 *       ({@code type: human|ai|system|tool}, {@code content}) or as LangChain's {@code dumpd} does ({@code lc},
 *       {@code kwargs: {type, content}}), or a LlamaIndex message ({@code role}, text {@code blocks});
 *   <li>a completion is its text, its message, an OpenAI chat completion ({@code choices}) or a LangChain
 *       {@code LLMResult} ({@code generations});
 *   <li>token counts are under Anthropic's and LangChain's names ({@code input_tokens}) or OpenAI's
 *       ({@code prompt_tokens}).
 * </ul>
 */
final class SerializedMessages {

    /** LangChain's message types, as the roles the chat APIs name them by. */
    private static final Map<String, String> LANGCHAIN_ROLES =
            Map.of("human", "user", "ai", "assistant", "system", "system", "tool", "tool", "function", "function");

    /** Where a completion's message sits in the results that wrap it: OpenAI's choices, LangChain's generations. */
    private static final List<String> COMPLETION_WRAPPERS = List.of("choices", "generations", "message");

    private SerializedMessages() {}

    /**
     * The messages of a list, in order; a plain string in it is a user prompt (a completions API's). A list of lists
     * is LangChain's batch of prompts: one traced call is one batch, its first.
     */
    static List<ChatMessage> of(JsonNode list) {
        List<ChatMessage> messages = new ArrayList<>();
        if (list == null || !list.isArray()) {
            return messages;
        }
        JsonNode batch = !list.isEmpty() && list.get(0).isArray() ? list.get(0) : list;
        for (JsonNode item : batch) {
            messages.add(item.isTextual() ? new ChatMessage("user", item.textValue()) : message(item));
        }
        return messages;
    }

    static ChatMessage message(JsonNode message) {
        JsonNode fields = fields(message);
        String role = AttributeMap.text(fields.get("role"));
        if (role == null) {
            role = AttributeMap.text(fields.get("type"));
        }
        role = role == null ? "unknown" : role.strip().toLowerCase(Locale.ROOT);
        return new ChatMessage(LANGCHAIN_ROLES.getOrDefault(role, role), text(fields));
    }

    /**
     * The text a completion answered with (the first choice or generation), null when the value holds none: absent, or
     * a shape that carries no message text.
     */
    static String completionText(JsonNode output) {
        if (output == null || output.isNull()) {
            return null;
        }
        if (output.isTextual()) {
            return output.textValue();
        }
        if (output.isArray()) {
            return output.isEmpty() ? null : completionText(output.get(0));
        }
        if (!output.isObject()) {
            return null;
        }
        for (String wrapper : COMPLETION_WRAPPERS) {
            JsonNode inner = output.get(wrapper);
            if (inner != null && inner.isContainerNode()) {
                return completionText(inner);
            }
        }
        String text = text(fields(output));
        return text != null ? text : AttributeMap.text(output.get("text")); // a completions API's choice, a Generation
    }

    /** Token counts as the provider reported them; unknown when the value holds neither naming. */
    static TokenUsage usage(JsonNode usage) {
        if (usage == null || !usage.isObject()) {
            return TokenUsage.UNKNOWN;
        }
        return new TokenUsage(firstInteger(usage, "input_tokens", "prompt_tokens"),
                firstInteger(usage, "output_tokens", "completion_tokens"));
    }

    private static Integer firstInteger(JsonNode object, String... fields) {
        for (String field : fields) {
            Integer value = AttributeMap.integer(object.get(field));
            if (value != null) {
                return value;
            }
        }
        return null;
    }

    /**
     * The arguments of a message's tool calls, a line per call, as a proxy's recorded reply is read (an agent's search
     * call is its run's rewrite): OpenAI's {@code function.arguments} (a JSON string), LangChain's {@code args} (an
     * object); null when it made none.
     */
    private static String toolCalls(JsonNode calls) {
        if (calls == null || !calls.isArray()) {
            return null;
        }
        StringBuilder joined = null;
        for (JsonNode call : calls) {
            JsonNode arguments = call.path("function").get("arguments");
            if (arguments == null) {
                arguments = call.has("args") ? call.get("args") : call.get("arguments");
            }
            if (arguments != null && !arguments.isNull()) {
                joined = joined == null ? new StringBuilder() : joined.append('\n');
                joined.append(arguments.isTextual() ? arguments.textValue() : arguments.toString());
            }
        }
        return joined == null ? null : joined.toString();
    }

    /** LangChain's {@code dumpd} keeps a message's fields under {@code kwargs}. */
    private static JsonNode fields(JsonNode message) {
        JsonNode kwargs = message.get("kwargs");
        return message.has("lc") && kwargs != null && kwargs.isObject() ? kwargs : message;
    }

    /**
     * The message's content as {@link GenAiMessages#text} reads it, else its LlamaIndex text blocks joined; for a
     * message that calls tools, what it asked of them ({@link #toolCalls}).
     */
    private static String text(JsonNode message) {
        String calls = toolCalls(message.get("tool_calls"));
        if (calls != null) {
            return calls;
        }
        String text = GenAiMessages.text(message);
        JsonNode blocks = message.get("blocks");
        if (text != null || blocks == null || !blocks.isArray()) {
            return text;
        }
        StringBuilder joined = new StringBuilder();
        for (JsonNode block : blocks) {
            String blockText = AttributeMap.text(block.get("text"));
            if (blockText != null && "text".equals(AttributeMap.text(block.get("block_type")))) {
                joined.append(joined.length() > 0 ? "\n" : "").append(blockText);
            }
        }
        return joined.length() == 0 ? null : joined.toString();
    }
}
