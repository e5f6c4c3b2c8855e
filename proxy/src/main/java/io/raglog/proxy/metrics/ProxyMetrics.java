package io.raglog.proxy.metrics;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

/**
 * The proxy's counters, updated from the event loops and the recorder thread: what passed, what was recorded, what
 * was dropped and why, and the latency the proxy added. Exposed as Prometheus text on the admin port and logged at
 * shutdown.
 */
public final class ProxyMetrics {

    /** Why a recording (never a call) was dropped. */
    public enum DropReason {
        /** the in-memory queue was full: the sink is slow or down */
        QUEUE_FULL,
        /** the sink refused or failed the event (Kafka unreachable past its timeouts, record too large) */
        SINK_ERROR,
        /** the event could not be encoded */
        ENCODE_ERROR,
        /** still queued when the proxy stopped */
        SHUTDOWN;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    private final LongAdder requests = new LongAdder();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder noRoute = new LongAdder();
    private final LongAdder upstreamFailures = new LongAdder();
    private final LongAdder tooLarge = new LongAdder();
    private final LongAdder recorded = new LongAdder();
    private final Map<DropReason, LongAdder> dropped = new EnumMap<>(DropReason.class);
    private final LongAdder requestBytes = new LongAdder();
    private final LongAdder responseBytes = new LongAdder();
    private final LongAdder recordedBytes = new LongAdder();
    private final LongAdder truncatedBodies = new LongAdder();
    private final LatencyHistogram addedLatency = new LatencyHistogram();
    private final AtomicReference<String> lastSinkFailure = new AtomicReference<>();
    private volatile IntSupplier queueDepth = () -> 0;

    public ProxyMetrics() {
        for (DropReason reason : DropReason.values()) {
            dropped.put(reason, new LongAdder());
        }
    }

    public void request() {
        requests.increment();
    }

    public void callStarted() {
        inFlight.incrementAndGet();
    }

    public void callEnded() {
        inFlight.decrementAndGet();
    }

    /** Calls between their request head and the end of their response. */
    public int inFlight() {
        return inFlight.get();
    }

    public void noRoute() {
        noRoute.increment();
    }

    public void upstreamFailure() {
        upstreamFailures.increment();
    }

    /** A request refused 413: its body is over the cap of a route the proxy signs (the body is held to be signed). */
    public void tooLarge() {
        tooLarge.increment();
    }

    public void bytes(long request, long response) {
        requestBytes.add(request);
        responseBytes.add(response);
    }

    public void truncatedBody() {
        truncatedBodies.increment();
    }

    public void addedLatency(long nanos) {
        addedLatency.record(nanos);
    }

    public void recorded(long eventBytes) {
        recorded.increment();
        recordedBytes.add(eventBytes);
    }

    public void dropped(DropReason reason) {
        dropped.get(reason).increment();
    }

    public void sinkFailure(Exception e) {
        lastSinkFailure.set(e.getClass().getSimpleName() + ": " + e.getMessage());
    }

    public void queueDepth(IntSupplier depth) {
        this.queueDepth = depth;
    }

    public Snapshot snapshot() {
        Map<DropReason, Long> drops = new EnumMap<>(DropReason.class);
        dropped.forEach((reason, count) -> drops.put(reason, count.sum()));
        return new Snapshot(requests.sum(), noRoute.sum(), upstreamFailures.sum(), tooLarge.sum(), recorded.sum(),
                Collections.unmodifiableMap(drops), requestBytes.sum(), responseBytes.sum(), recordedBytes.sum(),
                truncatedBodies.sum(),
                queueDepth.getAsInt(), inFlight.get(), addedLatency.snapshot(), lastSinkFailure.get());
    }

    /** A consistent-enough read of every counter, for tests, logs and the metrics endpoint. */
    public record Snapshot(long requests, long noRoute, long upstreamFailures, long tooLarge, long recorded,
            Map<DropReason, Long> dropped, long requestBytes, long responseBytes, long recordedBytes,
            long truncatedBodies, int queueDepth, int inFlight, LatencyHistogram.Snapshot addedLatency,
            String lastSinkFailure) {

        public long droppedTotal() {
            return dropped.values().stream().mapToLong(Long::longValue).sum();
        }

        /** One line for the shutdown log. */
        public String describe() {
            LatencyHistogram.Snapshot h = addedLatency;
            return String.format(Locale.ROOT,
                    "requests=%d recorded=%d dropped=%d %s no_route=%d upstream_failures=%d too_large=%d bytes_in=%d"
                            + " bytes_out=%d recorded_bytes=%d truncated_bodies=%d added_latency_p50<=%s p99<=%s%s",
                    requests, recorded, droppedTotal(), dropped, noRoute, upstreamFailures, tooLarge, requestBytes,
                    responseBytes, recordedBytes, truncatedBodies, millis(h.quantileUpperBoundSeconds(0.5)),
                    millis(h.quantileUpperBoundSeconds(0.99)),
                    lastSinkFailure == null ? "" : " last_sink_failure=\"" + lastSinkFailure + "\"");
        }

        private static String millis(double seconds) {
            return Double.isInfinite(seconds) ? "+Inf" : String.format(Locale.ROOT, "%.2fms", seconds * 1000);
        }
    }
}
