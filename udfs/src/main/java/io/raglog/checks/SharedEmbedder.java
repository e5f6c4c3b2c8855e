package io.raglog.checks;

/**
 * One embedding model per JVM (per job class loader), shared by the cheap checks and the offline judge of every slot:
 * the ONNX session is thread-safe, costs ~100 MB and seconds to load, and the passage cache is worth more when shared.
 * Reference-counted so that the last task to close releases the native memory (a session cluster reuses JVMs).
 */
public final class SharedEmbedder {

    /** Entries of the passage-vector cache: 20,000 × 384 floats ≈ 30 MB plus the texts. */
    public static final long DEFAULT_CACHE_ENTRIES = 20_000;

    private static MiniLmEmbedder model;
    private static CachedEmbedder cached;
    private static int users;

    private SharedEmbedder() {}

    /** Loads the model on first use; every acquire must be paired with {@link #release()}. */
    public static synchronized CachedEmbedder acquire(long cacheEntries) {
        if (users == 0) {
            model = new MiniLmEmbedder();
            cached = new CachedEmbedder(model, cacheEntries);
        }
        users++;
        return cached;
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
