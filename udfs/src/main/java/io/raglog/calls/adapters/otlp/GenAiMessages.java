package io.raglog.calls.adapters.otlp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ChatMessage;
import io.raglog.schemas.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prompts and completions of an OTel GenAI span, wherever the instrumentation's semantic-convention version put them,
 * newest first:
 *
 * <ol>
 *   <li>{@code gen_ai.system_instructions} + {@code gen_ai.input.messages} / {@code gen_ai.output.messages}
 *       (v1.37+), on the span or on a {@code gen_ai.client.inference.operation.details} span event; a JSON string or a
 *       structured value, messages made of typed {@code parts};
 *   <li>the indexed {@code gen_ai.prompt.N.role|content} / {@code gen_ai.completion.N.content} attributes (v1.26 and
 *       older, still written by OpenLLMetry);
 *   <li>span events {@code gen_ai.system|user|assistant|tool.message} and {@code gen_ai.choice} (v1.27 to v1.36), with
 *       the body flattened into attributes or JSON-encoded in {@code gen_ai.event.content} (Azure AI Inference,
 *       Semantic Kernel);
 *   <li>span events {@code gen_ai.content.prompt} / {@code gen_ai.content.completion} with a JSON string in
 *       {@code gen_ai.prompt} / {@code gen_ai.completion} (v1.26).
 * </ol>
 */
final class GenAiMessages {

    static final String DETAILS_EVENT = "gen_ai.client.inference.operation.details";
    private static final Map<String, String> MESSAGE_EVENTS = Map.of(
            "gen_ai.system.message", "system",
            "gen_ai.user.message", "user",
            "gen_ai.assistant.message", "assistant",
            "gen_ai.tool.message", "tool");
    private static final String CHOICE_EVENT = "gen_ai.choice";

    private GenAiMessages() {}

    /** The messages sent, in order; empty when the span recorded none (content capture is opt-in). */
    static List<ChatMessage> input(SpanCall span) throws AdapterException {
        List<ChatMessage> messages = structuredInput(span.attributes());
        if (!messages.isEmpty()) {
            return messages;
        }
        for (SpanCall.Event details : span.events(DETAILS_EVENT)) {
            messages = structuredInput(details.attributes());
            if (!messages.isEmpty()) {
                return messages;
            }
        }
        for (AttributeMap prompt : span.attributes().list("gen_ai.prompt")) {
            String role = prompt.lowerString("role");
            messages.add(new ChatMessage(role == null ? "user" : role, indexedPromptText(prompt)));
        }
        if (!messages.isEmpty()) {
            return messages;
        }
        for (SpanCall.Event event : span.events()) {
            String role = MESSAGE_EVENTS.get(event.name());
            if (role != null) {
                JsonNode body = eventBody(event);
                String explicitRole = AttributeMap.text(body.get("role"));
                messages.add(new ChatMessage(explicitRole == null ? role : explicitRole.toLowerCase(Locale.ROOT),
                        text(body)));
            }
        }
        if (!messages.isEmpty()) {
            return messages;
        }
        for (SpanCall.Event event : span.events("gen_ai.content.prompt")) {
            messages.addAll(fromJson(event.attributes().json("gen_ai.prompt"), "user"));
        }
        return messages;
    }

    /**
     * OpenLLMetry writes a chat message as {@code .content}, a completions-API prompt as {@code .user}; a message that
     * called tools as its {@code .tool_calls.N.arguments}, read as what it asked of them (a line per call).
     */
    static String indexedPromptText(AttributeMap prompt) {
        String calls = indexedToolCalls(prompt);
        if (calls != null) {
            return calls;
        }
        String content = prompt.string("content");
        return content != null ? content : prompt.string("user");
    }

    /** The {@code tool_calls.N.arguments} of an indexed message, a line each; null when it called no tool. */
    private static String indexedToolCalls(AttributeMap message) {
        return toolCallArguments(message.list("tool_calls"), "arguments");
    }

    /**
     * The arguments of indexed tool calls (each at {@code key} below its index), a line each: what a turn that called
     * tools asked of them; null when none has any.
     */
    static String toolCallArguments(List<AttributeMap> calls, String key) {
        StringBuilder joined = null;
        for (AttributeMap call : calls) {
            String arguments = call.string(key);
            if (arguments != null && !arguments.isBlank()) {
                joined = joined == null ? new StringBuilder() : joined.append('\n');
                joined.append(arguments);
            }
        }
        return joined == null ? null : joined.toString();
    }

    /** The first completion (choice 0), null when the span recorded none. */
    static String output(SpanCall span) throws AdapterException {
        String output = firstText(span.attributes().json("gen_ai.output.messages"));
        if (output != null) {
            return output;
        }
        for (SpanCall.Event details : span.events(DETAILS_EVENT)) {
            output = firstText(details.attributes().json("gen_ai.output.messages"));
            if (output != null) {
                return output;
            }
        }
        List<AttributeMap> completions = span.attributes().list("gen_ai.completion");
        if (!completions.isEmpty()) {
            String calls = indexedToolCalls(completions.get(0));
            return calls != null ? calls : completions.get(0).string("content");
        }
        List<SpanCall.Event> choices = span.events(CHOICE_EVENT);
        if (!choices.isEmpty()) {
            JsonNode body = eventBody(firstChoice(choices));
            JsonNode message = body.get("message");
            return message != null && message.isObject() ? text(message) : text(body);
        }
        for (SpanCall.Event event : span.events("gen_ai.content.completion")) {
            JsonNode completion = event.attributes().json("gen_ai.completion");
            output = completion != null && completion.isTextual() ? completion.textValue() : firstText(completion);
            if (output != null) {
                return output;
            }
        }
        return null;
    }

    private static List<ChatMessage> structuredInput(AttributeMap attributes) throws AdapterException {
        List<ChatMessage> messages = new ArrayList<>();
        JsonNode inputs = attributes.json("gen_ai.input.messages");
        if (inputs == null) {
            return messages;
        }
        JsonNode instructions = attributes.json("gen_ai.system_instructions");
        if (instructions != null) {
            String system = instructions.isArray() ? joinParts(instructions) : AttributeMap.text(instructions);
            if (system != null) {
                messages.add(new ChatMessage("system", system));
            }
        }
        messages.addAll(fromJson(inputs, "user"));
        return messages;
    }

    private static List<ChatMessage> fromJson(JsonNode messages, String defaultRole) throws AdapterException {
        List<ChatMessage> list = new ArrayList<>();
        if (messages == null) {
            return list;
        }
        if (!messages.isArray()) {
            throw new AdapterException("message list is not a JSON array: " + abbreviate(messages));
        }
        for (JsonNode message : messages) {
            String role = AttributeMap.text(message.get("role"));
            list.add(new ChatMessage(role == null ? defaultRole : role.toLowerCase(Locale.ROOT), text(message)));
        }
        return list;
    }

    private static String firstText(JsonNode messages) {
        if (messages == null || !messages.isArray() || messages.isEmpty()) {
            return null;
        }
        return text(messages.get(0));
    }

    /**
     * The text of one message: its {@code parts} of type text (current conventions), or its {@code content} as a
     * string, a list of text parts, or an object holding the text (Azure AI Inference).
     */
    static String text(JsonNode message) {
        if (message == null) {
            return null;
        }
        if (message.isTextual()) {
            return message.textValue();
        }
        JsonNode parts = message.get("parts");
        if (parts != null && parts.isArray()) {
            return joinParts(parts);
        }
        JsonNode content = message.get("content");
        if (content == null || content.isNull()) {
            return null;
        }
        if (content.isArray()) {
            return joinParts(content);
        }
        if (content.isObject()) {
            JsonNode text = content.get("text");
            if (text != null && text.isObject()) {
                text = text.get("value");
            }
            return AttributeMap.text(text);
        }
        return AttributeMap.text(content);
    }

    /**
     * The text parts, a line each; a tool's result ({@code tool_call_response}: an agent's search results) is text the
     * model read. A message that calls tools ({@code tool_call} parts) is what it asked of them, the arguments a line
     * per call, as a proxy's recorded reply is read: the text beside them only announces the call.
     */
    private static String joinParts(JsonNode parts) {
        String calls = toolCallParts(parts);
        if (calls != null) {
            return calls;
        }
        StringBuilder text = new StringBuilder();
        for (JsonNode part : parts) {
            String type = AttributeMap.text(part.get("type"));
            if ("tool_call_response".equals(type)) {
                JsonNode response = part.get("response");
                String result = response == null || response.isNull() ? null
                        : response.isTextual() ? response.textValue() : response.toString();
                if (result != null) {
                    text.append(text.length() > 0 ? "\n" : "").append(result);
                }
                continue;
            }
            if (type != null && !"text".equals(type)) {
                continue; // blobs, reasoning: not prompt text
            }
            String partText = part.isTextual() ? part.textValue() : AttributeMap.text(part.get("content"));
            if (partText == null) {
                partText = AttributeMap.text(part.get("text"));
            }
            if (partText != null) {
                if (text.length() > 0) {
                    text.append('\n');
                }
                text.append(partText);
            }
        }
        return text.length() == 0 ? null : text.toString();
    }

    /** The arguments of a message's {@code tool_call} parts, a line each (JSON); null when it calls no tool. */
    private static String toolCallParts(JsonNode parts) {
        StringBuilder calls = null;
        for (JsonNode part : parts) {
            JsonNode arguments = part.get("arguments");
            if ("tool_call".equals(AttributeMap.text(part.get("type"))) && arguments != null && !arguments.isNull()) {
                calls = calls == null ? new StringBuilder() : calls.append('\n');
                calls.append(arguments.isTextual() ? arguments.textValue() : arguments.toString());
            }
        }
        return calls == null ? null : calls.toString();
    }

    /** The event's body: JSON-encoded in {@code gen_ai.event.content}, or its fields flattened into attributes. */
    private static JsonNode eventBody(SpanCall.Event event) throws AdapterException {
        JsonNode encoded = event.attributes().json("gen_ai.event.content");
        if (encoded != null && encoded.isObject()) {
            return encoded;
        }
        ObjectNode body = Json.MAPPER.createObjectNode();
        if (encoded != null && encoded.isTextual()) {
            body.put("content", encoded.textValue());
        }
        for (String field : List.of("role", "content", "index", "finish_reason")) {
            JsonNode value = event.attributes().get(field);
            if (value != null) {
                body.set(field, value);
            }
        }
        JsonNode message = event.attributes().json("message");
        if (message != null) {
            body.set("message", message);
        }
        return body;
    }

    private static SpanCall.Event firstChoice(List<SpanCall.Event> choices) throws AdapterException {
        for (SpanCall.Event choice : choices) {
            Integer index = AttributeMap.integer(eventBody(choice).get("index"));
            if (index == null || index == 0) {
                return choice;
            }
        }
        return choices.get(0);
    }

    private static String abbreviate(JsonNode value) {
        String text;
        try {
            text = Json.MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            text = value.getNodeType().toString();
        }
        return text.length() <= 80 ? text : text.substring(0, 77) + "...";
    }
}
