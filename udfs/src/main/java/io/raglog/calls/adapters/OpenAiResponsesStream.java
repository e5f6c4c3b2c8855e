package io.raglog.calls.adapters;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;

/**
 * What a Responses API stream's events add up to, read as they are parsed: the text of
 * {@code response.output_text.delta} events, the model of {@code response.created}, and the last
 * {@code response.completed} (or {@code response.incomplete}) response, which carries usage and the whole output.
 * An event's {@code type} may follow its delta, so a delta appended is taken back at the event's end when the event
 * was another; a field given twice counts with its last value, as in a tree.
 */
final class OpenAiResponsesStream implements Sse.ChunkReader {

    private static final String TEXT_DELTA = "response.output_text.delta";
    private static final String COMPLETED = "response.completed";
    private static final String INCOMPLETE = "response.incomplete";
    private static final String CREATED = "response.created";

    private final StringBuilder deltas = new StringBuilder();
    private JsonNode completed;
    private String createdModel;

    String deltas() {
        return deltas.toString();
    }

    /** The last completed (or incomplete) event's response; null when none came. */
    JsonNode completed() {
        return completed;
    }

    /** The model the created events named before any completed one, the last of them; null when none did. */
    String createdModel() {
        return createdModel;
    }

    @Override
    public void read(JsonParser event, String eventName) throws IOException {
        if (event.currentToken() != JsonToken.START_OBJECT) {
            event.skipChildren();
            return;
        }
        int deltasMark = deltas.length();
        boolean typed = false;
        String type = null;
        JsonNode response = null;
        while (event.nextToken() == JsonToken.FIELD_NAME) {
            String field = event.currentName();
            event.nextToken();
            if ("type".equals(field)) {
                typed = true;
                type = ChunkFields.oneOf(event, TEXT_DELTA, COMPLETED, INCOMPLETE, CREATED);
            } else if ("delta".equals(field)) {
                deltas.setLength(deltasMark);
                ChunkFields.appendText(deltas, event);
            } else if ("response".equals(field)) {
                response = ChunkFields.tree(event);
            } else {
                event.skipChildren();
            }
        }
        if (!typed) {
            type = eventName; // the event's name, for streams whose data does not repeat it
        }
        if (!TEXT_DELTA.equals(type)) {
            deltas.setLength(deltasMark);
        }
        if (COMPLETED.equals(type) || INCOMPLETE.equals(type)) {
            completed = response;
        } else if (completed == null && CREATED.equals(type)) {
            String model = Bodies.label(response, "model");
            createdModel = model != null ? model : createdModel;
        }
    }
}
