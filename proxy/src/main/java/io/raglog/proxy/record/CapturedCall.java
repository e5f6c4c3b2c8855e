package io.raglog.proxy.record;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything the proxy saw of one call, raw: handed from the event loop to the recorder thread, which turns it into a
 * redacted CallEvent. Nothing here is redacted yet, so it never leaves the process.
 *
 * @param routePipeline the pipeline the route names, null when the route names none
 * @param upstreamUrl the URL the call went to (the route's upstream plus the path), before redaction
 * @param requestHeaders as sent upstream, names as received; the client's {@code x-raglog-*} headers are kept here
 *     (they carry the run hint and pipeline) but were not forwarded
 * @param status the upstream's status, or the proxy's own (502) when the upstream could not be reached
 * @param incomplete why the exchange ended early (a side closed the connection), null when it completed
 */
public record CapturedCall(
        Instant startedAt,
        Instant endedAt,
        String routePipeline,
        String method,
        String upstreamUrl,
        List<Map.Entry<String, String>> requestHeaders,
        CapturedBody requestBody,
        int status,
        List<Map.Entry<String, String>> responseHeaders,
        CapturedBody responseBody,
        String incomplete) {

    /** What the call holds in memory while it waits for the recorder: bounds the queue in bytes. */
    public long weight() {
        return 512L + requestBody.bytes().length + responseBody.bytes().length
                + 64L * (requestHeaders.size() + responseHeaders.size());
    }
}
