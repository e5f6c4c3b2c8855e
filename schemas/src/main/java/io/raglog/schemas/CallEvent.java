package io.raglog.schemas;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;

/**
 * One captured API call, as the proxy or the OTLP decoder writes it ({@code schemas/call.v1.json}).
 *
 * @param runHint explicit run header id, W3C traceparent trace id, or OTel trace id; null when the pipeline sent none
 * @param source {@code proxy} or {@code otlp}
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
        String source) {

    public static final String SOURCE_PROXY = "proxy";
    public static final String SOURCE_OTLP = "otlp";

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
