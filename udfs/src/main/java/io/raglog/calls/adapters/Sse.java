package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.calls.AdapterException;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reassembles a streamed reply recorded as the raw {@code text/event-stream} body: events separated by blank
 * lines, {@code event:} naming the event, one or more {@code data:} lines carrying it, {@code :} comments ignored.
 */
public final class Sse {

    /** The data of OpenAI-style streams' last event, which is not JSON. */
    public static final String DONE = "[DONE]";

    /** One server-sent event; {@code event} is null when the stream does not name its events (OpenAI). */
    public record Event(String event, String data) {}

    private Sse() {}

    /** True when a recorded body is an event stream rather than a JSON document. */
    public static boolean isStream(JsonNode body) {
        if (body == null || !body.isTextual()) {
            return false;
        }
        String t = body.textValue().stripLeading();
        return t.startsWith("data:") || t.startsWith("event:") || t.startsWith(":") || t.startsWith("id:")
                || t.contains("\ndata:");
    }

    public static List<Event> parse(String raw) {
        List<Event> events = new ArrayList<>();
        String event = null;
        StringBuilder data = null;
        for (String line : raw.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1)) {
            if (line.isEmpty()) {
                if (data != null) {
                    events.add(new Event(event, data.toString()));
                }
                event = null;
                data = null;
                continue;
            }
            if (line.startsWith(":")) {
                continue;
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            if ("event".equals(field)) {
                event = value;
            } else if ("data".equals(field)) {
                if (data == null) {
                    data = new StringBuilder(value);
                } else {
                    data.append('\n').append(value);
                }
            }
        }
        if (data != null) {
            events.add(new Event(event, data.toString())); // a recording cut before the final blank line
        }
        return events;
    }

    /**
     * The JSON payloads of a streamed reply, in order, without the {@code [DONE]} sentinel. Accepts the raw event
     * stream or, as some proxies record it, an array of already-parsed chunks.
     *
     * @throws AdapterException when an event's data is not JSON
     */
    public static List<JsonNode> jsonChunks(JsonNode body) throws AdapterException {
        List<JsonNode> chunks = new ArrayList<>();
        if (body != null && body.isArray()) {
            body.forEach(chunks::add);
            return chunks;
        }
        if (body == null || !body.isTextual()) {
            throw new AdapterException("streamed reply is " + Bodies.describe(body) + ", expected an event stream");
        }
        int n = 0;
        for (Event e : parse(body.textValue())) {
            n++;
            String data = e.data().strip();
            if (data.isEmpty() || DONE.equals(data)) {
                continue;
            }
            try {
                JsonNode node = Json.MAPPER.readTree(data);
                if (e.event() != null && node.isObject() && !node.has("type")) {
                    // Keep the event name with the payload for streams whose data does not repeat it.
                    ((ObjectNode) node).put("type", e.event());
                }
                chunks.add(node);
            } catch (IOException notJson) {
                throw new AdapterException("stream event " + n + " data is not JSON: "
                        + (data.length() > 60 ? data.substring(0, 60) + "..." : data));
            }
        }
        return chunks;
    }
}
