package io.raglog.bench.micro;

import io.raglog.bench.BenchResults;
import io.raglog.bench.Machine;
import io.raglog.job.DefaultBundle;
import io.raglog.score.ModelBundle;

/**
 * The heap the shipped model bundle keeps: loaded (its models and the files they were read from, as training and the
 * thresholds tool hold it) and loaded for scoring (the models alone, as the job's tasks share one copy per JVM). The
 * live heap after full collections, with the bundle held, over the live heap before; loaded twice first, so that the
 * classes and the JIT's work are not counted.
 */
public final class BundleHeap {

    private BundleHeap() {}

    public static BenchResults measure() {
        for (int i = 0; i < 2; i++) {
            DefaultBundle.load().close();
        }
        double before = Machine.leastLiveHeapMb();
        ModelBundle loaded = DefaultBundle.load();
        double withFiles = Machine.leastLiveHeapMb();
        try (ModelBundle scoring = loaded.forScoring()) {
            loaded = null; // the files go with it; the models stay, handed over
            double withoutFiles = Machine.leastLiveHeapMb();
            BenchResults r = new BenchResults();
            r.put("bundle_heap_mb_loaded", withFiles - before,
                    "live heap held by the shipped bundle, loaded with its files (training, the thresholds tool)");
            r.put("bundle_heap_mb_scoring", withoutFiles - before, "the same loaded for scoring ("
                    + scoring.id() + "): one copy per JVM, shared by its scoring and tier-gate tasks");
            return r;
        }
    }
}
