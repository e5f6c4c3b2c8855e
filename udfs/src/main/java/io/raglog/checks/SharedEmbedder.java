package io.raglog.checks;

import com.github.benmanes.caffeine.cache.Cache;

/**
 * One embedding model per JVM (per job class loader), shared by the cheap checks and the offline judge of every slot:
 * the ONNX session is thread-safe, costs ~100 MB and seconds to load, and the passage cache is worth more when shared.
 * Reference-counted so that the last task to close releases the native memory (a session cluster reuses JVMs).
 *
 * <p>The passage vectors outlive the model: tasks restarted in the same JVM (a failover, a job cancelled and started
 * again in a session cluster) find the passages they had embedded, instead of paying the model for the whole
 * knowledge base again while their backlog waits. That keeps up to {@code cacheEntries} vectors (~30 MB at the default)
 * on the heap after the last task closes. The first acquire sizes the cache.
 */
public final class SharedEmbedder {

    /** Entries of the passage-vector cache: 20,000 × 384 floats ≈ 30 MB plus the texts. */
    public static final long DEFAULT_CACHE_ENTRIES = 20_000;

    private static MiniLmEmbedder model;
    private static CachedEmbedder cached;
    /** Volatile: {@link #misses()} reads it without the lock, which a loading model holds for seconds. */
    private static volatile Cache<String, float[]> vectors;
    private static int users;

    private SharedEmbedder() {}

    /** Loads the model on first use, with one intra-op thread; every acquire must be paired with {@link #release()}. */
    public static CachedEmbedder acquire(long cacheEntries) {
        return acquire(cacheEntries, 1);
    }

    /**
     * Loads the model on first use, its session with {@code threads} intra-op threads (a later acquire while it is
     * loaded shares it as it is); every acquire must be paired with {@link #release()}.
     */
    public static synchronized CachedEmbedder acquire(long cacheEntries, int threads) {
        if (users == 0) {
            if (vectors == null) {
                vectors = CachedEmbedder.newCache(cacheEntries);
            }
            model = new MiniLmEmbedder(threads);
            cached = new CachedEmbedder(model, vectors);
        }
        users++;
        return cached;
    }

    /** Forgets every kept vector: the next task starts cold (benchmarks compare jobs from the same start). */
    public static synchronized void forgetVectors() {
        if (vectors != null) {
            vectors.invalidateAll();
        }
    }

    /**
     * Texts the JVM's vector cache has missed so far, counted across jobs: what the model was asked to embed (a batch's
     * repeats are looked up once). Zero before the first acquire. Never waits for a model being loaded.
     */
    public static long misses() {
        Cache<String, float[]> cache = vectors;
        return cache == null ? 0 : cache.stats().missCount();
    }

    public static synchronized void release() {
        if (users == 0) {
            return;
        }
        users--;
        if (users == 0) {
            model.close();
            model = null;
            cached = null;
        }
    }
}
