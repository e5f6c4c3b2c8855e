package io.raglog.simulator.profile;

import io.raglog.simulator.pipeline.Rand;
import java.time.Instant;
import java.util.SplittableRandom;

/** The simulated clock of one run: calls happen one after another, with the client's own small gaps between them. */
public final class CallTimeline {

    /** When a call started and ended. */
    public record Window(Instant start, Instant end) {
        public long millis() {
            return end.toEpochMilli() - start.toEpochMilli();
        }
    }

    private final SplittableRandom rng;
    private Instant cursor;

    public CallTimeline(Instant start, SplittableRandom rng) {
        this.cursor = start;
        this.rng = rng;
    }

    public Instant now() {
        return cursor;
    }

    /** The next call: a few milliseconds of client work, then a latency drawn around the median. */
    public Window call(double medianMs, double sigma) {
        Instant start = cursor.plusMillis(1 + rng.nextInt(12));
        long latency = Math.max(1, Math.round(Rand.logNormal(rng, medianMs, sigma)));
        cursor = start.plusMillis(latency);
        return new Window(start, cursor);
    }

    /** A fixed-length call, e.g. a streamed reply whose length follows from its tokens. */
    public Window callLasting(long millis) {
        Instant start = cursor.plusMillis(1 + rng.nextInt(12));
        cursor = start.plusMillis(Math.max(1, millis));
        return new Window(start, cursor);
    }

    public void pause(long millis) {
        cursor = cursor.plusMillis(millis);
    }

    /** Closes a window opened at {@code start} around the calls made since (a parent span ends after its children). */
    public Window span(Instant start) {
        cursor = cursor.plusMillis(1);
        return new Window(start, cursor);
    }
}
