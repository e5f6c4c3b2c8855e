package io.raglog.assemble;

import io.raglog.calls.ClassifiedCall;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Which calls each key has buffered in state, and when each started: kept on the heap beside the state, so that a
 * timer reads from state only the calls it can link ({@link RunLinker#latestStartLinkable}) and never walks the
 * whole buffer.
 *
 * <p>Why: a key without run hints holds all of its pipeline's open calls, and every timer of the key (one per run
 * at least) walked all of them. On RocksDB that walk deserialises every buffered call (the state's time-to-live
 * reads each entry) and steps over the tombstones of the calls already removed; reading a 6,000-run backlog, the
 * assembly thread spent 21 ms per run there and the job did 42 runs/s, against 150 on the heap (measured).
 *
 * <p>A key's entry is either complete or absent: it is made by one walk of the key's state the first time a timer
 * needs it (after a start or a restore the heap is empty), then kept in step as calls are buffered and consumed, and
 * dropped when the key's buffer empties. Calls that the state's time-to-live dropped are found missing when read and
 * leave then. The heap it takes is in proportion to the calls in flight (an event id and a start time each, some
 * 150 bytes), which the run timeout bounds while event time moves.
 */
final class PendingIndex {

    /** One key's buffered calls: event id → start (epoch ms), and whether they carry a run hint. */
    private static final class Calls {
        /** Every call of a key has a hint (the key is pipeline + hint), or none has; told by the calls themselves. */
        boolean hinted;
        final Map<String, Long> starts = new HashMap<>();
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
            calls.starts.put(e.getKey(), e.getValue().event().startedAt().toEpochMilli());
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
        calls.starts.put(call.event().eventId(), call.event().startedAt().toEpochMilli());
    }

    void remove(String key, String eventId) {
        Calls calls = byKey.get(key);
        if (calls != null) {
            calls.starts.remove(eventId);
        }
    }

    /** The key's buffer was cleared; it stays indexed, as empty. */
    void clear(String key) {
        Calls calls = byKey.get(key);
        if (calls != null) {
            calls.starts.clear();
        }
    }

    /**
     * Whether an indexed key's buffer is empty, read without touching state: on RocksDB, asking the state walks over
     * the tombstones the key's consumed calls left. The index holds every call the state holds (and those the
     * state's time-to-live dropped, until they are read), so empty here means empty there.
     */
    boolean isEmpty(String key) {
        return indexed(key).starts.isEmpty();
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
        long latestStart = calls.hinted ? Long.MAX_VALUE : RunLinker.latestStartLinkable(now);
        List<String> ids = new ArrayList<>();
        for (Map.Entry<String, Long> e : calls.starts.entrySet()) {
            if (e.getValue() <= latestStart) {
                ids.add(e.getKey());
            }
        }
        return ids;
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
            size += calls.starts.size();
        }
        return size;
    }
}
