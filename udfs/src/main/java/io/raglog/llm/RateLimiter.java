package io.raglog.llm;

/**
 * A client-side requests-per-second limit that never blocks a thread: each call reserves the next free slot and is
 * scheduled that far ahead.
 */
final class RateLimiter {

    private final long intervalNanos;
    private long nextFree;

    /** @param perSecond 0 or less: no limit */
    RateLimiter(double perSecond) {
        this.intervalNanos = perSecond <= 0 ? 0 : (long) (1_000_000_000L / perSecond);
    }

    /** How long to wait before sending, in milliseconds. */
    synchronized long reserveMillis() {
        if (intervalNanos == 0) {
            return 0;
        }
        long now = System.nanoTime();
        long slot = Math.max(nextFree, now);
        nextFree = slot + intervalNanos;
        return (slot - now) / 1_000_000;
    }
}
