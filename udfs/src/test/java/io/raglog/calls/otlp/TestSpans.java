package io.raglog.calls.otlp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Single spans for adapter edge cases, written as their attributes (already typed JSON) and events. */
final class TestSpans {

    private static final long START = 1_764_420_000_000_000_000L;

    private TestSpans() {}

    static CallEvent call(String attributes) {
        return call(attributes, "[]", 0);
    }

    /** @param events {@code [{"name": ..., "attributes": {...}}, ...]} */
    static CallEvent call(String attributes, String events) {
        return call(attributes, events, 0);
    }

    static CallEvent failedCall(String attributes) {
        return call(attributes, "[]", OtlpSpan.STATUS_CODE_ERROR);
    }

    private static CallEvent call(String attributes, String events, int statusCode) {
        List<OtlpSpan.Event> spanEvents = new ArrayList<>();
        long time = START;
        for (JsonNode event : parse(events)) {
            spanEvents.add(new OtlpSpan.Event(event.get("name").asText(), ++time,
                    (ObjectNode) event.path("attributes")));
        }
        OtlpSpan span = new OtlpSpan("test-pipeline", "test-scope", "0123456789abcdef0123456789abcdef",
                "0123456789abcdef", "", "test span", 3, START, START + 250_000_000L, statusCode, "",
                (ObjectNode) parse(attributes), spanEvents);
        return SpanToCall.toCall(span);
    }

    private static JsonNode parse(String json) {
        try {
            return Json.MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
