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

    /** Whether the line's field (up to {@code colon}, or the whole line when it is -1) is {@code name}, uncopied. */
    private static boolean isField(String line, int colon, String name) {
        int end = colon < 0 ? line.length() : colon;
        return end == name.length() && line.startsWith(name);
    }

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
        // an event's data: its one line as it is (most events have one), or the lines joined once there are more;
        // a builder per event and its copy were a tenth of what decoding a streamed call allocated (JFR)
        String data = null;
        StringBuilder moreData = null;
        for (String line : raw.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1)) {
            if (line.isEmpty()) {
                if (data != null) {
                    events.add(new Event(event, moreData == null ? data : moreData.toString()));
                }
                event = null;
                data = null;
                moreData = null;
                continue;
            }
            if (line.startsWith(":")) {
                continue;
            }
            // the field is the line up to its colon (all of it without one); only an event's or data's value is read
            int colon = line.indexOf(':');
            boolean isEvent = isField(line, colon, "event");
            if (!isEvent && !isField(line, colon, "data")) {
                continue;
            }
            String value = colon < 0 ? "" : line.substring(line.startsWith(" ", colon + 1) ? colon + 2 : colon + 1);
            if (isEvent) {
                event = value;
            } else if (data == null) {
                data = value;
            } else {
                if (moreData == null) {
                    moreData = new StringBuilder(data);
                }
                moreData.append('\n').append(value);
            }
        }
        if (data != null) {
            // a recording cut before the final blank line
            events.add(new Event(event, moreData == null ? data : moreData.toString()));
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
