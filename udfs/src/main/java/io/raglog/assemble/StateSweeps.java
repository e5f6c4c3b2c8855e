package io.raglog.assemble;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.streaming.api.TimerService;

/**
 * When each key that buffers calls is next swept: a processing-time timer per key, so that calls the state's
 * time-to-live expired leave the heap even when no event-time timer comes to link them (a stalled watermark, a bug),
 * which is the promise of {@link AssemblySettings#stateTtl()}. A key's first sweep is due one time-to-live after its
 * first buffered call, and it is called off when the key's calls leave, so a key that closes its runs never sees
 * one; a key that still holds calls after a sweep is swept again every quarter of the time-to-live, so a call
 * leaves at most a quarter of it (and a minute) after it expired.
 *
 * <p>Why not Flink's incremental cleanup, the heap backend's way: it walks the state a few entries at a time on
 * every access to it, and makes a new visitor for each key group it steps into; with the job's 128 key groups (Flink's
 * default maximum parallelism) and the few hundred keys a live job holds, that walk was 17 of the 49 KB a run
 * {@code AssemblyTaskBenchmarks.assembleRunsLive} allocated, and about a sixth of the assembly task's allocation in a
 * JFR profile of the job (issue #27). A timer is an entry in Flink's timer queue, added and removed once per run.
 *
 * <p>Kept on the heap, like {@link PendingIndex}: after a restore it is empty, the restored timers fire as sweeps of
 * keys it does not know (sweeps fall on whole minutes, which tells them from the prompt closes' timers; a prompt
 * close that falls on one too costs one needless sweep), and a key's next buffered call schedules it again.
 */
final class StateSweeps {

    /** Sweeps fall on whole minutes of processing time. */
    static final long GRANULARITY_MS = 60_000;

    private final long firstAfterMs;
    private final long againAfterMs;
    private final Map<String, Long> dueByKey = new HashMap<>();

    StateSweeps(Duration stateTtl) {
        this.firstAfterMs = stateTtl.toMillis();
        this.againAfterMs = Math.max(1, stateTtl.toMillis() / 4);
    }

    /** A call was buffered under the key: its sweep is scheduled unless one is already. */
    void ensure(String key, TimerService timers) {
        if (!dueByKey.containsKey(key)) {
            schedule(key, timers, firstAfterMs);
        }
    }

    /** The key's calls all left: its sweep is called off. */
    void cancel(String key, TimerService timers) {
        Long due = dueByKey.remove(key);
        if (due != null) {
            timers.deleteProcessingTimeTimer(due);
        }
    }

    /** Whether a processing-time timer of the key at this time is its sweep (or may be: a key this heap never saw). */
    boolean isSweep(String key, long timestamp) {
        Long due = dueByKey.get(key);
        return due == null ? timestamp % GRANULARITY_MS == 0 : due == timestamp;
    }

    /** The key was swept: if it still holds calls, it is swept again a quarter of the time-to-live later. */
    void swept(String key, boolean stillHoldsCalls, TimerService timers) {
        dueByKey.remove(key);
        if (stillHoldsCalls) {
            schedule(key, timers, againAfterMs);
        }
    }

    /** Keys with a sweep scheduled (for tests). */
    int scheduled() {
        return dueByKey.size();
    }

    private void schedule(String key, TimerService timers, long afterMs) {
        long due = (Math.addExact(timers.currentProcessingTime(), afterMs) / GRANULARITY_MS + 1) * GRANULARITY_MS;
        timers.registerProcessingTimeTimer(due);
        dueByKey.put(key, due);
    }
}
