package io.raglog.assemble;

import java.io.Serializable;
import java.time.Duration;

/**
 * How long run assembly waits, in event time.
 *
 * @param grace after the generator call ends, how long to wait for stragglers of the same run (a retried embed
 *     call logged late, a proxy that flushes its buffer after the reply)
 * @param runTimeout a call that no generator call claims within this time is flushed as part of an incomplete run
 * @param maxRunDuration how far before a generator call its run's first call may lie; bounds the linking search
 * @param closedRunMemory how long a hinted run's key remembers it was closed, so a straggler is reported late
 *     instead of opening a second run under the same id
 * @param stateTtl a safety net: buffered calls older than this (in processing time) are dropped from state even if
 *     no timer fired, so a bug or a stalled watermark cannot grow state without bound
 */
public record AssemblySettings(Duration grace, Duration runTimeout, Duration maxRunDuration, Duration closedRunMemory,
        Duration stateTtl) implements Serializable {

    public static final AssemblySettings DEFAULTS = new AssemblySettings(Duration.ofSeconds(2),
            Duration.ofSeconds(120), Duration.ofSeconds(120), Duration.ofMinutes(10), Duration.ofHours(6));

    public AssemblySettings {
        if (grace.isNegative() || runTimeout.compareTo(grace) <= 0) {
            throw new IllegalArgumentException("need 0 <= grace < runTimeout, got grace=" + grace
                    + " runTimeout=" + runTimeout);
        }
    }
}
