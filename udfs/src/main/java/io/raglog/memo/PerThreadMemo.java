package io.raglog.memo;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Remembers the last results of a pure function of a text, per thread. The checks read the same passages several
 * times per run (retrieved, given to the reranker, kept, in the context; and again in the offline judge), popular
 * passages recur across runs, and a pipeline's prompt template repeats on every call; reading such a text is regex
 * work worth doing once. Per thread, so that the Flink task and the LLM checks' threads never share (or lock) a map;
 * bounded, so it holds only the recent texts.
 */
public final class PerThreadMemo<V> {

    private final ThreadLocal<Map<String, V>> recent;

    public PerThreadMemo(int capacity) {
        this.recent = ThreadLocal.withInitial(() -> new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > capacity;
            }
        });
    }

    /** {@code compute} must be a pure function of the text, and its result must never be modified. */
    public V get(String text, Function<String, V> compute) {
        Map<String, V> map = recent.get();
        V v = map.get(text);
        if (v == null) {
            v = compute.apply(text);
            map.put(text, v);
        }
        return v;
    }
}
