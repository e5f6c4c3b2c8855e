package io.raglog.calls.adapters;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.raglog.calls.AdapterException;
import io.raglog.schemas.TokenUsage;
import java.io.IOException;

/**
 * What an Anthropic Messages stream's events add up to, read as they are parsed: the text of
 * {@code content_block_delta} / {@code text_delta} events (and of {@code input_json_delta} ones, a tool's input, read
 * as the reply when a {@code message_delta} says the turn stopped to use a tool), the model and input usage of
 * {@code message_start}, the output tokens of {@code message_delta}; an {@code error} event ends it (overloaded
 * mid-stream: what arrived is kept). An event's {@code type} may follow its other fields, so what a delta appended is
 * taken back at the event's end when it was not a text delta; a field given twice counts with its last value, as in a
 * tree.
 */
final class AnthropicStream implements Sse.ChunkReader {

    private static final String MESSAGE_START = "message_start";
    private static final String CONTENT_BLOCK_DELTA = "content_block_delta";
    private static final String MESSAGE_DELTA = "message_delta";
    private static final String ERROR = "error";

    private final StringBuilder text = new StringBuilder();
    /** The {@code input_json_delta} pieces: a tool call's input, as the model wrote it. */
    private final StringBuilder toolInput = new StringBuilder();
    /** Whether a {@code message_delta} said the turn stopped to use a tool. */
    private boolean stoppedForTool;
    private TokenUsage usage = TokenUsage.UNKNOWN;
    private String model;
    private boolean ended;

    AnthropicStream(String requestedModel) {
        this.model = requestedModel;
    }

    String text() {
        return text.toString();
    }

    /**
     * What a turn that stopped to use a tool asked of it: its tool's input JSON (the first tool's, when it called
     * several); empty for any other turn.
     */
    String toolInput() {
        return stoppedForTool ? toolInput.toString() : "";
    }

    TokenUsage usage() {
        return usage;
    }

    /** The model {@code message_start} named, else the one requested. */
    String model() {
        return model;
    }

    @Override
    public void read(JsonParser event, String eventName) throws IOException, AdapterException {
        if (ended || event.currentToken() != JsonToken.START_OBJECT) {
            event.skipChildren();
            return;
        }
        int textMark = text.length();
        int toolMark = toolInput.length();
        boolean toolStop = false;
        boolean typed = false;
        String type = null;
        JsonNode message = MissingNode.getInstance();
        JsonNode eventUsage = null;
        while (event.nextToken() == JsonToken.FIELD_NAME) {
            String field = event.currentName();
            JsonToken value = event.nextToken();
            if ("type".equals(field)) {
                typed = true;
                type = ChunkFields.oneOf(event, MESSAGE_START, CONTENT_BLOCK_DELTA, MESSAGE_DELTA, ERROR);
            } else if ("delta".equals(field)) {
                text.setLength(textMark);
                toolInput.setLength(toolMark);
                toolStop = false;
                if (value == JsonToken.START_OBJECT) {
                    toolStop = readDelta(event);
                } else {
                    event.skipChildren();
                }
            } else if ("message".equals(field)) {
                message = ChunkFields.tree(event);
            } else if ("usage".equals(field)) {
                eventUsage = ChunkFields.tree(event);
            } else {
                event.skipChildren();
            }
        }
        if (!typed) {
            type = eventName; // the event's name, for streams whose data does not repeat it
        }
        if (!CONTENT_BLOCK_DELTA.equals(type)) {
            text.setLength(textMark);
            toolInput.setLength(toolMark);
        }
        stoppedForTool |= toolStop && MESSAGE_DELTA.equals(type);
        if (MESSAGE_START.equals(type)) {
            model = message.path("model").isTextual() ? message.get("model").textValue() : model;
            usage = AnthropicMessagesAdapter.usage(message.get("usage"), null);
        } else if (MESSAGE_DELTA.equals(type)) {
            // Output tokens here are cumulative for the whole message; input stays from message_start.
            usage = AnthropicMessagesAdapter.usage(eventUsage, usage);
        } else if (ERROR.equals(type)) {
            ended = true;
        }
    }

    /**
     * Appends a text delta's text, and an {@code input_json_delta}'s piece of a tool's input; anything else a delta
     * carries (thinking) is neither.
     *
     * @return whether it said the turn stopped to use a tool ({@code stop_reason} {@code tool_use}, a
     *     {@code message_delta}'s)
     */
    private boolean readDelta(JsonParser p) throws IOException {
        int textMark = text.length();
        int toolMark = toolInput.length();
        String deltaType = null;
        boolean toolStop = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            if ("type".equals(field)) {
                deltaType = ChunkFields.oneOf(p, "text_delta", "input_json_delta");
            } else if ("text".equals(field)) {
                text.setLength(textMark);
                ChunkFields.appendText(text, p);
            } else if ("partial_json".equals(field)) {
                toolInput.setLength(toolMark);
                ChunkFields.appendText(toolInput, p);
            } else if ("stop_reason".equals(field)) {
                toolStop = ChunkFields.oneOf(p, "tool_use") != null;
            } else {
                p.skipChildren();
            }
        }
        if (!"text_delta".equals(deltaType)) {
            text.setLength(textMark);
        }
        if (!"input_json_delta".equals(deltaType)) {
            toolInput.setLength(toolMark);
        }
        return toolStop;
    }
}
