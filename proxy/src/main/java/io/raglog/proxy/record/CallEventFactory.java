package io.raglog.proxy.record;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.HttpRequest;
import io.raglog.schemas.HttpResponse;
import io.raglog.schemas.SchemaIds;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * Builds the redacted {@code raglog.call/v1} event of a captured call. Runs on the recorder thread, never on an event
 * loop: parsing and redacting a large body must not delay anyone's call.
 */
public final class CallEventFactory {

    /** Marks a side whose body was cut at the recording cap; the value is the body's full length in bytes. */
    public static final String TRUNCATED_HEADER = "x-raglog-body-truncated";
    /** Marks a call a side ended early; the value says which. */
    public static final String INCOMPLETE_HEADER = "x-raglog-incomplete";

    private static final String RAGLOG_PREFIX = "x-raglog-";

    private final Redactor redactor;
    private final String defaultPipeline;
    private final int maxDecodedBytes;
    private final String sessionHeader;

    /** No session header: calls carry no session. */
    public CallEventFactory(Redactor redactor, String defaultPipeline, int maxDecodedBytes) {
        this(redactor, defaultPipeline, maxDecodedBytes, null);
    }

    /** @param sessionHeader lower case; null for none */
    public CallEventFactory(Redactor redactor, String defaultPipeline, int maxDecodedBytes, String sessionHeader) {
        if (defaultPipeline == null || defaultPipeline.isBlank()) {
            throw new IllegalArgumentException("a default pipeline name is required");
        }
        this.redactor = redactor;
        this.defaultPipeline = defaultPipeline;
        this.maxDecodedBytes = maxDecodedBytes;
        this.sessionHeader = sessionHeader;
    }

    public CallEvent build(CapturedCall call) {
        Map<String, String> rawRequestHeaders = lowerCased(call.requestHeaders());
        String runHint = RunHints.of(rawRequestHeaders.get(RunHints.RUN_ID_HEADER),
                rawRequestHeaders.get(RunHints.TRACEPARENT_HEADER));

        Map<String, String> requestHeaders = redacted(rawRequestHeaders);
        JsonNode requestBody = body(call.requestBody(), rawRequestHeaders, requestHeaders);

        Map<String, String> rawResponseHeaders = lowerCased(call.responseHeaders());
        Map<String, String> responseHeaders = redacted(rawResponseHeaders);
        JsonNode responseBody = body(call.responseBody(), rawResponseHeaders, responseHeaders);
        if (call.incomplete() != null) {
            responseHeaders.put(INCOMPLETE_HEADER, call.incomplete());
        }

        return new CallEvent(SchemaIds.CALL_V1, UUID.randomUUID().toString(),
                pipeline(call, rawRequestHeaders), runHint, call.startedAt(), call.endedAt(),
                new HttpRequest(call.method(), redactor.url(call.upstreamUrl()), requestHeaders, requestBody),
                new HttpResponse(call.status(), responseHeaders, responseBody),
                CallEvent.SOURCE_PROXY, session(requestHeaders));
    }

    /**
     * Read from the headers as recorded, after redaction, so the session can never carry what the headers may not: a
     * header redacted as secret gives no session (the config refuses such a name; this holds for rules that change).
     */
    private String session(Map<String, String> recordedHeaders) {
        if (sessionHeader == null) {
            return null;
        }
        String value = recordedHeaders.get(sessionHeader);
        if (value == null || value.isBlank() || value.equals(RedactionRules.REDACTED)) {
            return null;
        }
        return value.strip();
    }

    private String pipeline(CapturedCall call, Map<String, String> requestHeaders) {
        if (call.routePipeline() != null && !call.routePipeline().isBlank()) {
            return call.routePipeline();
        }
        String header = requestHeaders.get(RunHints.PIPELINE_HEADER);
        return header != null && !header.isBlank() ? header.strip() : defaultPipeline;
    }

    private JsonNode body(CapturedBody captured, Map<String, String> rawHeaders, Map<String, String> recordedHeaders) {
        RecordedBody.Decoded decoded = RecordedBody.decode(captured, rawHeaders.get("content-encoding"),
                rawHeaders.get("content-type"), maxDecodedBytes);
        if (captured.truncated() || decoded.partial()) {
            recordedHeaders.put(TRUNCATED_HEADER, Long.toString(captured.totalBytes()));
        }
        JsonNode value = decoded.value();
        if (value != null && value.isTextual() && isForm(rawHeaders.get("content-type"))) {
            return TextNode.valueOf(redactor.formPairs(value.textValue(), true));
        }
        return redactor.body(value);
    }

    private static boolean isForm(String contentType) {
        return contentType != null
                && contentType.toLowerCase(Locale.ROOT).startsWith("application/x-www-form-urlencoded");
    }

    /**
     * Names lower case, repeated headers joined with {@code ", "} as HTTP allows. The client's own
     * {@code x-raglog-*} headers are dropped: they were not sent upstream.
     */
    private static Map<String, String> lowerCased(List<Map.Entry<String, String>> headers) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, String> h : headers) {
            out.merge(h.getKey().toLowerCase(Locale.ROOT), h.getValue(), (a, b) -> a + ", " + b);
        }
        return out;
    }

    private Map<String, String> redacted(Map<String, String> headers) {
        Map<String, String> out = new LinkedHashMap<>();
        headers.forEach((name, value) -> {
            if (!name.startsWith(RAGLOG_PREFIX)) {
                out.put(name, redactor.headerValue(name, value));
            }
        });
        return out;
    }
}
