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
 * {@code content_block_delta} / {@code text_delta} events, the model and input usage of {@code message_start}, the
 * output tokens of {@code message_delta}; an {@code error} event ends it (overloaded mid-stream: what arrived is
 * kept). An event's {@code type} may follow its other fields, so what a delta appended is taken back at the event's
 * end when it was not a text delta; a field given twice counts with its last value, as in a tree.
 */
final class AnthropicStream implements Sse.ChunkReader {

    private static final String MESSAGE_START = "message_start";
    private static final String CONTENT_BLOCK_DELTA = "content_block_delta";
    private static final String MESSAGE_DELTA = "message_delta";
    private static final String ERROR = "error";

    private final StringBuilder text = new StringBuilder();
    private TokenUsage usage = TokenUsage.UNKNOWN;
    private String model;
    private boolean ended;

    AnthropicStream(String requestedModel) {
        this.model = requestedModel;
    }

    String text() {
        return text.toString();
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
                if (value == JsonToken.START_OBJECT) {
                    readDelta(event);
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
        }
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

    /** Appends a text delta's text; anything else a delta carries (tool input JSON, thinking) is not the reply. */
    private void readDelta(JsonParser p) throws IOException {
        int textMark = text.length();
        boolean textDelta = false;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            p.nextToken();
            if ("type".equals(field)) {
                textDelta = ChunkFields.oneOf(p, "text_delta") != null;
            } else if ("text".equals(field)) {
                text.setLength(textMark);
                ChunkFields.appendText(text, p);
            } else {
                p.skipChildren();
            }
        }
        if (!textDelta) {
            text.setLength(textMark);
        }
    }
}
