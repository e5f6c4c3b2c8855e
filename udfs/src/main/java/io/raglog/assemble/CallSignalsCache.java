package io.raglog.assemble;

import java.util.HashMap;
import java.util.Map;

/**
 * What each buffered call says for linking, per key, read once: on a busy pipeline key every timer relinks its open
 * calls, and reading their prompts and passages again each time was most of the job's CPU. Kept on the heap next to
 * state (RocksDB holds the calls themselves), so it is bounded: past {@code maxCalls} further calls are read on each
 * timer as before, which is slower but the same result.
 */
final class CallSignalsCache {

    private final int maxCalls;
    private final Map<String, Map<String, CallSignals>> byKey = new HashMap<>();
    private int size;

    CallSignalsCache(int maxCalls) {
        this.maxCalls = maxCalls;
    }

    /** The signals read before for this buffered call, or null. */
    CallSignals get(String key, String eventId) {
        Map<String, CallSignals> calls = byKey.get(key);
        return calls == null ? null : calls.get(eventId);
    }

    /** Remembers a call's signals while there is room; returns them either way. */
    CallSignals put(String key, String eventId, CallSignals signals) {
        if (size < maxCalls && byKey.computeIfAbsent(key, k -> new HashMap<>()).put(eventId, signals) == null) {
            size++;
        }
        return signals;
    }

    /** A call left the buffer, or was replaced by a redelivery of its event id. */
    void forget(String key, String eventId) {
        Map<String, CallSignals> calls = byKey.get(key);
        if (calls != null && calls.remove(eventId) != null) {
            size--;
            if (calls.isEmpty()) {
                byKey.remove(key);
            }
        }
    }

    void forget(String key) {
        Map<String, CallSignals> calls = byKey.remove(key);
        if (calls != null) {
            size -= calls.size();
        }
    }

    int size() {
        return size;
    }
}
