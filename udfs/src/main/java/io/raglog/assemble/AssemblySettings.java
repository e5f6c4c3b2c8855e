package io.raglog.assemble;

import java.io.Serializable;
import java.time.Duration;
import org.apache.flink.configuration.ReadableConfig;

/**
 * How long run assembly waits.
 *
 * @param grace after the generator call ends, how long (in event time) to wait for stragglers of the same run (a
 *     retried embed call logged late, a proxy that flushes its buffer after the reply)
 * @param runTimeout a call that no generator call claims within this time is flushed as part of an incomplete run
 * @param maxRunDuration how far before a generator call its run's first call may lie; bounds the linking search
 * @param closedRunMemory how long a hinted run's key remembers it was closed, so a straggler is reported late
 *     instead of opening a second run under the same id
 * @param stateTtl a safety net: buffered calls older than this (in processing time) are dropped from state even if
 *     no event-time timer fired, so a bug or a stalled watermark cannot pile calls up in state (on the heap, a sweep
 *     per key does it, at most a quarter of this and a minute later: {@link StateSweeps}); what a closed hinted run
 *     leaves, its closing time and the timer that forgets it, a few numbers, waits for the watermark
 * @param generatorWait the prompt path: a run closes this long (in processing time) after its generator call
 *     arrived, instead of waiting for the watermark to pass the call + the grace (the max out-of-order delay + the
 *     grace, 7 s by default, and only as new calls arrive). A pipeline's calls are written in the order they end and
 *     the generator's ends last, so what the run lacks then is a rare straggler; it becomes a late call or part of an
 *     incomplete run, as it would after the grace. Null: event time only
 * @param generatorWaitMaxLag the prompt path is taken only for a generator call whose record is at most this old
 *     when it arrives (processing time - record timestamp). An older one means the job is working through a backlog,
 *     where partitions and topics are read at different speeds: then event time decides, as without the prompt path
 */
public record AssemblySettings(Duration grace, Duration runTimeout, Duration maxRunDuration, Duration closedRunMemory,
        Duration stateTtl, Duration generatorWait, Duration generatorWaitMaxLag) implements Serializable {

    public static final Duration DEFAULT_GENERATOR_WAIT = Duration.ofMillis(300);
    public static final Duration DEFAULT_GENERATOR_WAIT_MAX_LAG = Duration.ofSeconds(10);

    public static final AssemblySettings DEFAULTS = new AssemblySettings(Duration.ofSeconds(2),
            Duration.ofSeconds(120), Duration.ofSeconds(120), Duration.ofMinutes(10), Duration.ofHours(6),
            DEFAULT_GENERATOR_WAIT, DEFAULT_GENERATOR_WAIT_MAX_LAG);

    public AssemblySettings {
        if (grace.isNegative() || runTimeout.compareTo(grace) <= 0) {
            throw new IllegalArgumentException("need 0 <= grace < runTimeout, got grace=" + grace
                    + " runTimeout=" + runTimeout);
        }
        if (generatorWait != null && (generatorWait.isNegative() || generatorWaitMaxLag == null)) {
            throw new IllegalArgumentException("need generatorWait >= 0 and a generatorWaitMaxLag, got generatorWait="
                    + generatorWait + " generatorWaitMaxLag=" + generatorWaitMaxLag);
        }
    }

    /** With the prompt path at its defaults. */
    public AssemblySettings(Duration grace, Duration runTimeout, Duration maxRunDuration, Duration closedRunMemory,
            Duration stateTtl) {
        this(grace, runTimeout, maxRunDuration, closedRunMemory, stateTtl, DEFAULT_GENERATOR_WAIT,
                DEFAULT_GENERATOR_WAIT_MAX_LAG);
    }

    /**
     * From the job's configuration ({@link AssemblyOptions}); a run timeout above the default maximum run duration
     * raises it too, and a negative generator wait turns the prompt path off.
     */
    public static AssemblySettings from(ReadableConfig c) {
        AssemblySettings d = DEFAULTS;
        Duration timeout = AssemblyOptions.RUN_TIMEOUT.get(c);
        Duration wait = AssemblyOptions.generatorWait(c);
        return new AssemblySettings(AssemblyOptions.GRACE.get(c), timeout,
                timeout.compareTo(d.maxRunDuration()) > 0 ? timeout : d.maxRunDuration(), d.closedRunMemory(),
                d.stateTtl(), wait.isNegative() ? null : wait,
                wait.isNegative() ? null : AssemblyOptions.GENERATOR_WAIT_MAX_LAG.get(c));
    }

    /** Event time only: every run waits for the watermark (the behaviour before the prompt path). */
    public AssemblySettings eventTimeOnly() {
        return new AssemblySettings(grace, runTimeout, maxRunDuration, closedRunMemory, stateTtl, null, null);
    }

    public AssemblySettings withGeneratorWait(Duration wait, Duration maxLag) {
        return new AssemblySettings(grace, runTimeout, maxRunDuration, closedRunMemory, stateTtl, wait, maxLag);
    }

    /**
     * For a pipeline seen to synthesise an answer in several calls, whose later steps came after the first step's
     * run had closed: a generator call waits at least {@code stepWait} for the next step, in event time and on the
     * prompt path (below the run timeout, which it must leave room for).
     */
    public AssemblySettings waitingForSteps(Duration stepWait) {
        Duration cap = runTimeout.dividedBy(2);
        Duration wait = stepWait.compareTo(cap) > 0 ? cap : stepWait;
        return new AssemblySettings(grace.compareTo(wait) < 0 ? wait : grace, runTimeout, maxRunDuration,
                closedRunMemory, stateTtl,
                generatorWait == null || generatorWait.compareTo(wait) >= 0 ? generatorWait : wait,
                generatorWaitMaxLag);
    }

    public boolean promptClose() {
        return generatorWait != null;
    }
}
