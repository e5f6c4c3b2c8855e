package io.raglog.checks;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Passages repeat across runs (the same knowledge base answers many questions), so their vectors are kept in a
 * bounded cache keyed by the text itself. Misses of one call are embedded together, in one batch.
 */
public final class CachedEmbedder implements Embedder {

    private final Embedder delegate;
    private final Cache<String, float[]> cache;

    public CachedEmbedder(Embedder delegate, long maxEntries) {
        this(delegate, newCache(maxEntries));
    }

    /** @param cache vectors the delegate made (the same model), kept by the caller beyond this embedder's life */
    public CachedEmbedder(Embedder delegate, Cache<String, float[]> cache) {
        this.delegate = delegate;
        this.cache = cache;
    }

    /** A bounded vector cache, as this embedder keeps one. */
    public static Cache<String, float[]> newCache(long maxEntries) {
        return Caffeine.newBuilder().maximumSize(maxEntries).recordStats().build();
    }

    @Override
    public String id() {
        return delegate.id();
    }

    @Override
    public int dimensions() {
        return delegate.dimensions();
    }

    @Override
    public List<float[]> embed(List<String> texts) {
        Map<String, float[]> found = new LinkedHashMap<>();
        List<String> missing = new ArrayList<>();
        for (String t : texts) {
            String key = t == null ? "" : t;
            if (found.containsKey(key)) {
                continue;
            }
            float[] v = cache.getIfPresent(key);
            found.put(key, v);
            if (v == null) {
                missing.add(key);
            }
        }
        if (!missing.isEmpty()) {
            List<float[]> vectors = delegate.embed(missing);
            for (int i = 0; i < missing.size(); i++) {
                cache.put(missing.get(i), vectors.get(i));
                found.put(missing.get(i), vectors.get(i));
            }
        }
        List<float[]> out = new ArrayList<>(texts.size());
        for (String t : texts) {
            out.add(found.get(t == null ? "" : t));
        }
        return out;
    }

    public long hits() {
        return cache.stats().hitCount();
    }

    public long misses() {
        return cache.stats().missCount();
    }
}
