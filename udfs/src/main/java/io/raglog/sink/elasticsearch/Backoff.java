package io.raglog.sink.elasticsearch;

import java.io.Serializable;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential backoff with a cap and jitter: the wait before the n-th consecutive retry is
 * {@code min(max, initial * 2^(n-1))}, spread by ±20% so that many writers do not hammer a recovering cluster in
 * step. There is no attempt limit: the sink retries until Elasticsearch answers, back-pressuring meanwhile.
 */
public final class Backoff implements Serializable {

    private static final long serialVersionUID = 1L;

    public static final Duration DEFAULT_INITIAL = Duration.ofMillis(100);
    /** Short enough that a node back after a minute is noticed within seconds. */
    public static final Duration DEFAULT_MAX = Duration.ofSeconds(5);

    private final long initialMs;
    private final long maxMs;

    public Backoff(Duration initial, Duration max) {
        if (initial == null || initial.isNegative() || initial.isZero()) {
            throw new IllegalArgumentException("initial backoff must be positive, was " + initial);
        }
        if (max == null || max.compareTo(initial) < 0) {
            throw new IllegalArgumentException("max backoff " + max + " must be at least the initial " + initial);
        }
        this.initialMs = initial.toMillis();
        this.maxMs = max.toMillis();
    }

    public static Backoff defaults() {
        return new Backoff(DEFAULT_INITIAL, DEFAULT_MAX);
    }

    /** @param attempt 1 for the first retry after a failure */
    long delayMs(int attempt) {
        int doublings = Math.max(0, Math.min(attempt - 1, 30));
        long base = Math.min(maxMs, initialMs << doublings);
        double spread = 0.8 + 0.4 * ThreadLocalRandom.current().nextDouble();
        return Math.max(1, Math.min(maxMs, Math.round(base * spread)));
    }

    long maxMs() {
        return maxMs;
    }

    @Override
    public String toString() {
        return "backoff " + initialMs + " ms doubling to " + maxMs + " ms";
    }
}
