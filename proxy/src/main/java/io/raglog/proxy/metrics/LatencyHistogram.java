package io.raglog.proxy.metrics;

import java.util.concurrent.atomic.LongAdder;

/**
 * A Prometheus-style cumulative histogram of durations with fixed bucket bounds, cheap enough to update on an event
 * loop for every call (one array scan and two adds, no locks).
 */
public final class LatencyHistogram {

    /** Bucket upper bounds in seconds: fine below 5 ms, where the proxy's own cost lives, coarse above. */
    static final double[] BOUNDS = {0.0001, 0.00025, 0.0005, 0.00075, 0.001, 0.0015, 0.002, 0.003, 0.005, 0.01,
        0.025, 0.05, 0.1, 0.25, 1.0};

    private final LongAdder[] counts = new LongAdder[BOUNDS.length + 1];
    private final LongAdder sumNanos = new LongAdder();

    public LatencyHistogram() {
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new LongAdder();
        }
    }

    public void record(long nanos) {
        long n = Math.max(0, nanos);
        double seconds = n / 1e9;
        int i = 0;
        while (i < BOUNDS.length && seconds > BOUNDS[i]) {
            i++;
        }
        counts[i].increment();
        sumNanos.add(n);
    }

    /** An immutable view: per-bucket (not cumulative) counts, the last one for everything above the top bound. */
    public Snapshot snapshot() {
        long[] c = new long[counts.length];
        for (int i = 0; i < c.length; i++) {
            c[i] = counts[i].sum();
        }
        return new Snapshot(c, sumNanos.sum());
    }

    public record Snapshot(long[] counts, long sumNanos) {

        public long count() {
            long total = 0;
            for (long c : counts) {
                total += c;
            }
            return total;
        }

        /** The bucket bound at or below which {@code quantile} of the durations fall; +Inf when in the top bucket. */
        public double quantileUpperBoundSeconds(double quantile) {
            long total = count();
            if (total == 0) {
                return 0;
            }
            long rank = (long) Math.ceil(quantile * total);
            long seen = 0;
            for (int i = 0; i < counts.length; i++) {
                seen += counts[i];
                if (seen >= rank) {
                    return i < BOUNDS.length ? BOUNDS[i] : Double.POSITIVE_INFINITY;
                }
            }
            return Double.POSITIVE_INFINITY;
        }
    }
}
