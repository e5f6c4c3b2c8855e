package io.raglog.simulator.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.HttpRequest;
import io.raglog.schemas.HttpResponse;
import io.raglog.schemas.SchemaIds;
import io.raglog.simulator.pipeline.Rand;
import io.raglog.simulator.wire.Ids;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * Records a run's calls as the raglog proxy captures them: lower-case headers, credentials redacted, the run's hint
 * headers on every call, and a 429 followed by a retry when the vendor rate-limits.
 */
final class CallRecorder {

    /** A vendor's rate-limit reply: the error body and how long it asks the client to wait. */
    record RateLimit(double probability, Supplier<JsonNode> body, long retryAfterMs) {}

    /** A reply to record. */
    record Reply(int status, Map<String, String> headers, JsonNode body) {
        static Reply json(JsonNode body, String... headerPairs) {
            return new Reply(200, CallRecorder.headers("content-type", "application/json", headerPairs), body);
        }

        static Reply eventStream(String body, String... headerPairs) {
            return new Reply(200, CallRecorder.headers("content-type", "text/event-stream; charset=utf-8", headerPairs),
                    TextNode.valueOf(body));
        }
    }

    private final String pipeline;
    private final String runHint;
    private final Map<String, String> hintHeaders;
    private final CallTimeline timeline;
    private final SplittableRandom rng;
    private final List<CallEvent> calls = new ArrayList<>();

    CallRecorder(String pipeline, String runHint, Map<String, String> hintHeaders, CallTimeline timeline,
            SplittableRandom rng) {
        this.pipeline = pipeline;
        this.runHint = runHint;
        this.hintHeaders = hintHeaders;
        this.timeline = timeline;
        this.rng = rng;
    }

    static Map<String, String> headers(String k1, String v1, String... more) {
        Map<String, String> out = new LinkedHashMap<>();
        out.put(k1, v1);
        for (int i = 0; i + 1 < more.length; i += 2) {
            out.put(more[i], more[i + 1]);
        }
        return out;
    }

    CallTimeline timeline() {
        return timeline;
    }

    List<CallEvent> calls() {
        return calls;
    }

    /**
     * Records one call that takes {@code window}; when the vendor rate-limits this time, a short 429 call and the
     * client's back-off come first and the successful call follows.
     */
    CallEvent record(String url, Map<String, String> requestHeaders, JsonNode requestBody, Reply reply,
            RateLimit rateLimit, double medianMs, double sigma) {
        retryFirstIfLimited(url, requestHeaders, requestBody, rateLimit);
        return add(url, requestHeaders, requestBody, reply, timeline.call(medianMs, sigma));
    }

    /** As {@link #record}, for a call whose duration is known (a streamed reply). */
    CallEvent recordLasting(String url, Map<String, String> requestHeaders, JsonNode requestBody, Reply reply,
            RateLimit rateLimit, long millis) {
        retryFirstIfLimited(url, requestHeaders, requestBody, rateLimit);
        return add(url, requestHeaders, requestBody, reply, timeline.callLasting(millis));
    }

    private void retryFirstIfLimited(String url, Map<String, String> requestHeaders, JsonNode requestBody,
            RateLimit rateLimit) {
        if (rateLimit == null || !Rand.chance(rng, rateLimit.probability())) {
            return;
        }
        long waitMs = rateLimit.retryAfterMs();
        Reply limited = new Reply(429, headers("content-type", "application/json",
                "retry-after", Long.toString(Math.max(1, (waitMs + 999) / 1000)),
                "retry-after-ms", Long.toString(waitMs),
                "x-request-id", "req_" + Ids.hex(rng, 32)), rateLimit.body().get());
        add(url, requestHeaders, requestBody, limited, timeline.call(40, 0.4));
        // Clients honour retry-after and add jitter.
        timeline.pause(waitMs + rng.nextInt(250));
    }

    private CallEvent add(String url, Map<String, String> requestHeaders, JsonNode requestBody, Reply reply,
            CallTimeline.Window window) {
        Map<String, String> sent = new LinkedHashMap<>(requestHeaders);
        sent.putAll(hintHeaders);
        CallEvent event = new CallEvent(SchemaIds.CALL_V1, Ids.uuid(rng), pipeline, runHint, window.start(),
                window.end(), new HttpRequest("POST", url, sent, requestBody),
                new HttpResponse(reply.status(), reply.headers(), reply.body()), CallEvent.SOURCE_PROXY);
        calls.add(event);
        return event;
    }

    /** A GET with no body (admin and health calls). */
    CallEvent recordGet(String url, Map<String, String> requestHeaders, Reply reply, double medianMs) {
        CallTimeline.Window window = timeline.call(medianMs, 0.3);
        Map<String, String> sent = new LinkedHashMap<>(requestHeaders);
        sent.putAll(hintHeaders);
        CallEvent event = new CallEvent(SchemaIds.CALL_V1, Ids.uuid(rng), pipeline, runHint, window.start(),
                window.end(), new HttpRequest("GET", url, sent, null),
                new HttpResponse(reply.status(), reply.headers(), reply.body()), CallEvent.SOURCE_PROXY);
        calls.add(event);
        return event;
    }

    /** A PUT (Qdrant upserts). */
    CallEvent recordPut(String url, Map<String, String> requestHeaders, JsonNode requestBody, Reply reply,
            double medianMs) {
        CallTimeline.Window window = timeline.call(medianMs, 0.3);
        Map<String, String> sent = new LinkedHashMap<>(requestHeaders);
        sent.putAll(hintHeaders);
        CallEvent event = new CallEvent(SchemaIds.CALL_V1, Ids.uuid(rng), pipeline, runHint, window.start(),
                window.end(), new HttpRequest("PUT", url, sent, requestBody),
                new HttpResponse(reply.status(), reply.headers(), reply.body()), CallEvent.SOURCE_PROXY);
        calls.add(event);
        return event;
    }
}
