package io.raglog.calls.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.AdapterException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SseTest {

    /** One event as {@link Sse#forEachEvent} hands it on. */
    record Event(String event, String data) {}

    private static List<Event> events(String raw) throws AdapterException {
        List<Event> events = new ArrayList<>();
        Sse.forEachEvent(raw, (event, text, start, end) -> events.add(new Event(event, text.substring(start, end))));
        return events;
    }

    /** The events of a stream as they were read first: a String a line, a builder per event, each field copied. */
    static List<Event> parsedAsBefore(String raw) {
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
            events.add(new Event(event, data.toString()));
        }
        return events;
    }

    @Test
    void shouldReadAStreamAsBefore() throws AdapterException {
        String[] pieces = {"data", "data:", "data: ", "data:  x", "event", "event:", "event: delta", "id: 1",
            "retry: 5", ": comment", "datum: x", "eventful: y", "{\"a\": 1}", "\n", "\r\n", "\r", "\n\n", " ", ":",
            "data:{\"choices\":[]}", "event:message_stop"};
        SplittableRandom random = new SplittableRandom(9);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder raw = new StringBuilder();
            int n = random.nextInt(0, 12);
            for (int k = 0; k < n; k++) {
                raw.append(pieces[random.nextInt(pieces.length)]);
            }
            assertThat(events(raw.toString())).as("[%s]", raw).isEqualTo(parsedAsBefore(raw.toString()));
        }
    }
}
