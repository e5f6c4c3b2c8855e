package io.raglog.assemble;

import io.raglog.calls.ClassifiedCall;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Which calls each key has buffered in state, and when each started and ended: kept on the heap beside the state, so
 * that a timer reads from state only the calls it can link ({@link RunLinker#latestStartLinkable}), and none when
 * none of them is due ({@link #anyDue}), and never walks the whole buffer.
 *
 * <p>Why: a key without run hints holds all of its pipeline's open calls, and every timer of the key (one per run
 * at least) walked all of them. On RocksDB that walk deserialises every buffered call (the state's time-to-live
 * reads each entry) and steps over the tombstones of the calls already removed; reading a 6,000-run backlog, the
 * assembly thread spent 21 ms per run there and the job did 42 runs/s, against 150 on the heap (measured).
 *
 * <p>A key's entry is either complete or absent: it is made by one walk of the key's state the first time a timer
 * needs it (after a start or a restore the heap is empty), then kept in step as calls are buffered and consumed, and
 * dropped when the key's buffer empties. Calls that the state's time-to-live dropped are found missing when read and
 * leave then. The heap it takes is in proportion to the calls in flight (an event id and its times each, some
 * 170 bytes), which the run timeout bounds while event time moves.
 */
final class PendingIndex {

    /**
     * What the index keeps of a buffered call: enough to tell, without reading it, whether a timer can link anything
     * ({@link #anyDue}).
     *
     * @param closer whether it can close a run ({@link CallSignals#isCloser(ClassifiedCall)})
     */
    record Times(long startMs, long endMs, boolean closer) {
        static Times of(ClassifiedCall call) {
            return new Times(call.event().startedAt().toEpochMilli(), call.event().endedAt().toEpochMilli(),
                    CallSignals.isCloser(call));
        }
    }

    /** One key's buffered calls: event id → their times, and whether they carry a run hint. */
    private static final class Calls {
        /** Every call of a key has a hint (the key is pipeline + hint), or none has; told by the calls themselves. */
        boolean hinted;
        final Map<String, Times> times = new HashMap<>();

        long latestStartLinkable(long now) {
            return hinted ? Long.MAX_VALUE : RunLinker.latestStartLinkable(now);
        }
    }

    private final Map<String, Calls> byKey = new HashMap<>();

    boolean knows(String key) {
        return byKey.containsKey(key);
    }

    /** Indexes a key from one walk of its buffered calls (event id → call). */
    void load(String key, Iterable<Map.Entry<String, ClassifiedCall>> buffered) {
        Calls calls = new Calls();
        for (Map.Entry<String, ClassifiedCall> e : buffered) {
            calls.hinted = e.getValue().event().hasRunHint();
            calls.times.put(e.getKey(), Times.of(e.getValue()));
        }
        byKey.put(key, calls);
    }

    /** A call was buffered (or redelivered under the same event id); nothing to do for a key not indexed. */
    void add(String key, ClassifiedCall call) {
        Calls calls = byKey.get(key);
        if (calls == null) {
            return;
        }
        calls.hinted = call.event().hasRunHint(); // a key indexed while empty learns it from its first call
        calls.times.put(call.event().eventId(), Times.of(call));
    }

    void remove(String key, String eventId) {
        Calls calls = byKey.get(key);
        if (calls != null) {
            calls.times.remove(eventId);
        }
    }

    /** The key's buffer was cleared; it stays indexed, as empty. */
    void clear(String key) {
        Calls calls = byKey.get(key);
        if (calls != null) {
            calls.times.clear();
        }
    }

    /**
     * Whether an indexed key's buffer is empty, read without touching state: on RocksDB, asking the state walks over
     * the tombstones the key's consumed calls left. The index holds every call the state holds (and those the
     * state's time-to-live dropped, until they are read), so empty here means empty there.
     */
    boolean isEmpty(String key) {
        return indexed(key).times.isEmpty();
    }

    void forget(String key) {
        byKey.remove(key);
    }

    /**
     * The event ids of an indexed key's calls that linking at {@code now} can use: all of a hinted key's (it is one
     * run, linked whole), and of a key without hints those that started by {@link RunLinker#latestStartLinkable}.
     */
    List<String> linkable(String key, long now) {
        Calls calls = indexed(key);
        long latestStart = calls.latestStartLinkable(now);
        List<String> ids = new ArrayList<>();
        for (Map.Entry<String, Times> e : calls.times.entrySet()) {
            if (e.getValue().startMs() <= latestStart) {
                ids.add(e.getKey());
            }
        }
        return ids;
    }

    /**
     * Whether any call of an indexed key that linking at {@code now} can use is {@code due}. Why: most timers of a
     * busy key find nothing to close (the run a generator's timer was for closed on the prompt path, a call's run
     * timeout passed long after its run closed), yet reading and sorting every open call to learn that was most of
     * what a timer cost.
     */
    boolean anyDue(String key, long now, Predicate<Times> due) {
        Calls calls = indexed(key);
        long latestStart = calls.latestStartLinkable(now);
        for (Times t : calls.times.values()) {
            if (t.startMs() <= latestStart && due.test(t)) {
                return true;
            }
        }
        return false;
    }

    private Calls indexed(String key) {
        Calls calls = byKey.get(key);
        if (calls == null) {
            throw new IllegalStateException("key not indexed: " + key);
        }
        return calls;
    }

    /** Calls indexed, over all keys (for tests: counted, not kept). */
    int size() {
        int size = 0;
        for (Calls calls : byKey.values()) {
            size += calls.times.size();
        }
        return size;
    }
}
