package io.raglog.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * One captured API call, as the proxy or the OTLP decoder writes it ({@code schemas/call.v1.json}).
 *
 * @param runHint explicit run header id, W3C traceparent trace id, or OTel trace id; null when the pipeline sent none
 * @param source {@code proxy} or {@code otlp}
 * @param session the user session the call was made for: the proxy's configured session header
 *     ({@code x-session-id} by default), or the span attribute {@code session.id}; null when the pipeline sent none.
 *     An optional field added within {@code raglog.call/v1}: readers ignore fields they do not know (see {@link Json}),
 *     and it is left out of the line when null, so a call without one is written byte for byte as before
 */
public record CallEvent(
        String schema,
        String eventId,
        String pipeline,
        String runHint,
        Instant startedAt,
        Instant endedAt,
        HttpRequest request,
        HttpResponse response,
        String source,
        @JsonInclude(JsonInclude.Include.NON_NULL) String session) {

    public static final String SOURCE_PROXY = "proxy";
    public static final String SOURCE_OTLP = "otlp";

    /** A call with no session (the shape before sessions were recorded). */
    public CallEvent(String schema, String eventId, String pipeline, String runHint, Instant startedAt,
            Instant endedAt, HttpRequest request, HttpResponse response, String source) {
        this(schema, eventId, pipeline, runHint, startedAt, endedAt, request, response, source, null);
    }

    public CallEvent withSession(String value) {
        return new CallEvent(schema, eventId, pipeline, runHint, startedAt, endedAt, request, response, source, value);
    }

    /** This call with its request and response bodies left out, everything else (status, headers) kept. */
    public CallEvent withoutBodies() {
        HttpRequest sent = request == null ? null
                : new HttpRequest(request.method(), request.url(), request.headers(), null);
        HttpResponse received = response == null ? null
                : new HttpResponse(response.status(), response.headers(), null);
        return new CallEvent(schema, eventId, pipeline, runHint, startedAt, endedAt, sent, received, source, session);
    }

    public boolean hasRunHint() {
        return runHint != null && !runHint.isBlank();
    }

    public long latencyMillis() {
        return startedAt == null || endedAt == null ? 0 : Math.max(0, endedAt.toEpochMilli() - startedAt.toEpochMilli());
    }

    /** An HTTP error reply (429, 5xx, ...): the call happened but produced nothing a stage can use. */
    public boolean failed() {
        return response == null || response.status() >= 400;
    }
}
