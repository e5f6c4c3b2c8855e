package io.raglog.score.flink;

import io.raglog.score.ModelBundle;
import java.util.HashMap;
import java.util.Map;

/**
 * One loaded bundle per location for all the tasks of a job in one JVM. Each scoring task and, in tiered mode, each
 * LLM-checks task needs the bundle; loaded by each, a TaskManager held {@code 2 × slots} copies of the same trees
 * (the bench's {@code bundle_heap_mb_scoring} says how much heap one copy is) and of their XGBoost handles. The models
 * are read-only once loaded, so the tasks share them.
 *
 * <p>Leases are counted: the last task to let go closes the bundle and forgets it, so a job restarted after its bundle
 * directory was replaced reads the new files. The map is static in the job's classes, so on a Flink cluster, which
 * loads each job's classes on their own, jobs never share a bundle.
 */
public final class SharedBundles {

    private static final Map<BundleLocation, Held> HELD = new HashMap<>();

    private SharedBundles() {}

    private static final class Held {
        final ModelBundle bundle;
        int leases;

        Held(ModelBundle bundle) {
            this.bundle = bundle;
        }
    }

    /** A task's hold on a shared bundle; closing it more than once lets go once. */
    public static final class Lease implements AutoCloseable {
        private final BundleLocation location;
        private final ModelBundle bundle;
        private boolean closed;

        private Lease(BundleLocation location, ModelBundle bundle) {
            this.location = location;
            this.bundle = bundle;
        }

        public ModelBundle bundle() {
            return bundle;
        }

        @Override
        public void close() {
            synchronized (HELD) {
                if (closed) {
                    return;
                }
                closed = true;
                Held held = HELD.get(location);
                if (held != null && held.bundle == bundle && --held.leases == 0) {
                    HELD.remove(location);
                    bundle.close();
                }
            }
        }
    }

    /**
     * The bundle at this location, loaded for scoring by the first task that asks. Loading holds the others back
     * (they would load the same files); a bundle that fails to load is not kept, and the next task tries again.
     */
    public static Lease acquire(BundleLocation location) {
        synchronized (HELD) {
            Held held = HELD.get(location);
            if (held == null) {
                held = new Held(location.load().forScoring());
                HELD.put(location, held);
            }
            held.leases++;
            return new Lease(location, held.bundle);
        }
    }

    /** Whether a bundle from this location is loaded now (for tests). */
    static boolean holds(BundleLocation location) {
        synchronized (HELD) {
            return HELD.containsKey(location);
        }
    }
}
