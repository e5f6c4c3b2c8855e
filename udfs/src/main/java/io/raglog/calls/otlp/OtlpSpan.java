package io.raglog.calls.otlp;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * One span as both OTLP encodings decode it, before it becomes a call. Attribute values are already typed JSON
 * (string, number, boolean, array, object), the same whichever encoding they came in; the nodes are not to be changed.
 *
 * @param serviceName the resource's {@code service.name}, null when it has none
 * @param scopeName the instrumentation scope, e.g. {@code openinference.instrumentation.llama_index}; "" when unnamed
 * @param traceId 32 lower-case hex digits
 * @param spanId 16 lower-case hex digits
 * @param parentSpanId 16 lower-case hex digits, "" for a root span
 * @param kind the OTLP {@code SpanKind} number
 * @param statusCode the OTLP {@code Status.StatusCode} number
 */
public record OtlpSpan(String serviceName, String scopeName, String traceId, String spanId, String parentSpanId,
        String name, int kind, long startTimeUnixNano, long endTimeUnixNano, int statusCode, String statusMessage,
        ObjectNode attributes, List<Event> events) {

    public static final int STATUS_CODE_ERROR = 2;

    /** A span event: a timestamped, named set of attributes (GenAI prompts and choices, vector-store hits). */
    public record Event(String name, long timeUnixNano, ObjectNode attributes) {}

    public boolean failed() {
        return statusCode == STATUS_CODE_ERROR;
    }
}
