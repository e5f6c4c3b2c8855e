package io.raglog.assemble;

import io.raglog.calls.ClassifiedCall;
import java.util.HashMap;
import java.util.Map;

/**
 * What each buffered call says for linking, per key, read once: on a busy pipeline key every timer relinks all its
 * open calls, and reading their prompts and passages again each time was most of the job's CPU. Kept on the heap
 * next to state (RocksDB holds the calls themselves), so it is bounded: past {@code maxCalls} a key's calls are read
 * on each timer as before, which is slower but the same result.
 */
final class CallSignalsCache {

    private final int maxCalls;
    private final Map<String, Map<String, CallSignals>> byKey = new HashMap<>();
    private int size;

    CallSignalsCache(int maxCalls) {
        this.maxCalls = maxCalls;
    }

    /** The signals of exactly these buffered calls (event id → call), reading only those not read before. */
    Map<String, CallSignals> of(String key, Iterable<Map.Entry<String, ClassifiedCall>> buffered) {
        Map<String, CallSignals> known = byKey.getOrDefault(key, Map.of());
        Map<String, CallSignals> open = new HashMap<>();
        for (Map.Entry<String, ClassifiedCall> e : buffered) {
            CallSignals s = known.get(e.getKey());
            open.put(e.getKey(), s != null ? s : new CallSignals(e.getValue()));
        }
        forget(key); // keep exactly what is buffered: state TTL may have dropped calls without a timer
        if (!open.isEmpty() && size + open.size() <= maxCalls) {
            byKey.put(key, new HashMap<>(open));
            size += open.size();
        }
        return open;
    }

    /** A call left the buffer, or was replaced by a redelivery of its event id. */
    void forget(String key, String eventId) {
        Map<String, CallSignals> calls = byKey.get(key);
        if (calls != null && calls.remove(eventId) != null) {
            size--;
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
