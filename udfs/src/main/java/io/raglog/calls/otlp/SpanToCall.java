package io.raglog.calls.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.calls.adapters.otlp.SpanCall;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.HttpRequest;
import io.raglog.schemas.HttpResponse;
import io.raglog.schemas.Json;
import io.raglog.schemas.SchemaIds;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Turns a span into a call by the span-as-call convention ({@link SpanCall}), so that everything after ingest (the
 * classifier, run assembly) is one path for proxy calls and traced calls alike.
 */
public final class SpanToCall {

    /** The pipeline of a span whose resource names no service. */
    public static final String UNKNOWN_SERVICE = "unknown_service";

    /**
     * The user session a span was made for: OpenTelemetry's general attribute (semantic conventions, registry
     * "session"), which OpenInference instrumentations set too. It lands where the proxy puts its session header.
     */
    public static final String SESSION_ATTRIBUTE = "session.id";

    private static final int STATUS_OK = 200;
    private static final int STATUS_ERROR = 500;

    private SpanToCall() {}

    public static CallEvent toCall(OtlpSpan span) {
        String service = span.serviceName() == null || span.serviceName().isBlank()
                ? UNKNOWN_SERVICE : span.serviceName();

        Map<String, String> headers = new LinkedHashMap<>();
        headers.put(SpanCall.HEADER_SPAN_KIND, OtlpValues.kindName(span.kind()));
        headers.put(SpanCall.HEADER_PARENT_SPAN_ID, span.parentSpanId());
        headers.put(SpanCall.HEADER_SCOPE, span.scopeName() == null ? "" : span.scopeName());
        HttpRequest request = new HttpRequest(SpanCall.METHOD, SpanCall.URL_SCHEME + service + "/" + span.name(),
                Collections.unmodifiableMap(headers), span.attributes());

        ObjectNode events = null;
        if (!span.events().isEmpty()) {
            events = Json.MAPPER.createObjectNode();
            ArrayNode list = events.putArray(SpanCall.EVENTS);
            for (OtlpSpan.Event event : span.events()) {
                ObjectNode node = list.addObject();
                node.put(SpanCall.EVENT_NAME, event.name());
                node.set(SpanCall.EVENT_TIME, OtlpValues.integer(event.timeUnixNano()));
                node.set(SpanCall.EVENT_ATTRIBUTES, event.attributes());
            }
        }
        HttpResponse response = new HttpResponse(span.failed() ? STATUS_ERROR : STATUS_OK, Map.of(), events);

        return new CallEvent(SchemaIds.CALL_V1, callId(span.traceId(), span.spanId()), service, span.traceId(),
                instant(span.startTimeUnixNano()), instant(span.endTimeUnixNano()), request, response,
                CallEvent.SOURCE_OTLP, session(span));
    }

    /** A string attribute only: an id written as a number or a list is not one we can key state by. */
    private static String session(OtlpSpan span) {
        JsonNode value = span.attributes() == null ? null : span.attributes().get(SESSION_ATTRIBUTE);
        return value != null && value.isTextual() && !value.textValue().isBlank() ? value.textValue().strip() : null;
    }

    /**
     * A span's call id: {@code <trace id>:<span id>}, hex. Stable across replays of the same spans, and how a verdict
     * finds its way back to the trace ({@code io.raglog.otel.TraceLinks}).
     */
    public static String callId(String traceId, String spanId) {
        return traceId + ":" + spanId;
    }

    private static Instant instant(long unixNanos) {
        return Instant.ofEpochSecond(Math.floorDiv(unixNanos, 1_000_000_000L), Math.floorMod(unixNanos, 1_000_000_000L));
    }
}
