package io.raglog.calls.adapters.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.CallEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * The span-as-call convention: what one OTLP span looks like once the decoder has made it a {@link CallEvent}, and
 * how the span adapters read it back.
 *
 * <ul>
 *   <li>{@code request.method} = {@value #METHOD}; {@code request.url} = {@code otlp://<service.name>/<span name>}
 *   <li>{@code request.headers}: {@value #HEADER_SPAN_KIND}, {@value #HEADER_PARENT_SPAN_ID}, {@value #HEADER_SCOPE}
 *   <li>{@code request.body}: every span attribute under its flat key, with a typed JSON value
 *   <li>{@code response.status}: 500 for a span whose status is ERROR, else 200
 *   <li>{@code response.body}: {@code {"events": [{"name", "time_unix_nano", "attributes"}]}} when the span has
 *       events, else null
 * </ul>
 *
 * <p>The constants live here, on the reading side, so that the decoder ({@code io.raglog.calls.otlp}) depends on the
 * adapters and never the other way round.
 */
public final class SpanCall {

    public static final String METHOD = "SPAN";
    public static final String URL_SCHEME = "otlp://";
    public static final String HEADER_SPAN_KIND = "x-otel-span-kind";
    public static final String HEADER_PARENT_SPAN_ID = "x-otel-parent-span-id";
    public static final String HEADER_SCOPE = "x-otel-scope";
    public static final String EVENTS = "events";
    public static final String EVENT_NAME = "name";
    public static final String EVENT_TIME = "time_unix_nano";
    public static final String EVENT_ATTRIBUTES = "attributes";

    /** One span event, e.g. {@code gen_ai.choice} or {@code db.query.result}. */
    public record Event(String name, AttributeMap attributes) {}

    private final AttributeMap attributes;
    private final List<Event> events;
    private final boolean failed;

    private SpanCall(AttributeMap attributes, List<Event> events, boolean failed) {
        this.attributes = attributes;
        this.events = events;
        this.failed = failed;
    }

    /** True for a call the OTLP decoder made from a span; cheap enough for {@code ApiAdapter.accepts}. */
    public static boolean isSpanCall(CallEvent call) {
        return call != null && call.request() != null && METHOD.equals(call.request().method())
                && call.request().body() != null && call.request().body().isObject();
    }

    public static SpanCall of(CallEvent call) {
        JsonNode body = call.response() == null ? null : call.response().body();
        List<Event> events = new ArrayList<>();
        JsonNode list = body == null ? null : body.get(EVENTS);
        if (list != null && list.isArray()) {
            for (JsonNode event : list) {
                JsonNode name = event.get(EVENT_NAME);
                events.add(new Event(name == null ? "" : name.asText(), AttributeMap.of(event.get(EVENT_ATTRIBUTES))));
            }
        }
        return new SpanCall(AttributeMap.of(call.request().body()), List.copyOf(events), call.failed());
    }

    public AttributeMap attributes() {
        return attributes;
    }

    public List<Event> events() {
        return events;
    }

    public List<Event> events(String name) {
        List<Event> named = new ArrayList<>();
        for (Event event : events) {
            if (event.name().equals(name)) {
                named.add(event);
            }
        }
        return named;
    }

    /** The span ended with status ERROR: a stage call that produced nothing usable, so missing content is expected. */
    public boolean failed() {
        return failed;
    }
}
