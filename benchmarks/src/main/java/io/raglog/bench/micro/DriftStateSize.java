package io.raglog.bench.micro;

import io.raglog.bench.BenchResults;
import io.raglog.drift.DriftState;
import io.raglog.drift.EmbeddingDriftTracker;
import io.raglog.drift.IndexEmbedding;
import io.raglog.schemas.Json;
import io.raglog.schemas.Run;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The embedding-drift state one pipeline keeps (one JSON value per pipeline key), measured as the job writes it: the
 * simulated runs of each pipeline fed again and again, with index-building calls for many indexes and two models in
 * between (a pipeline with per-tenant namespaces and a re-embedding under way), so every part of the state is used.
 * Bounded means the bytes after the whole feed are about the bytes after its first thousand runs.
 */
public final class DriftStateSize {

    /** Index names a pipeline's index-building calls cycle through: more than the state keeps. */
    static final int INDEXES = 64;

    private DriftStateSize() {}

    public static BenchResults measure(int runsPerPipeline, long seed) {
        List<Run> runs = SimulatedTraffic.generate(400, seed).runs().stream()
                .map(SimulatedTraffic.LinkedRun::run)
                .filter(r -> !r.incomplete() && r.stages().embed().present())
                .toList();
        Map<String, DriftState> states = new HashMap<>();
        Map<String, Integer> fed = new HashMap<>();
        long bytesAtThousand = 0;
        long bytesAtEnd = 0;
        Instant at = Instant.parse("2026-01-01T00:00:00Z");
        for (int round = 0; round * runs.size() < runsPerPipeline * 6L; round++) {
            for (Run run : runs) {
                String pipeline = run.pipeline();
                int n = fed.merge(pipeline, 1, Integer::sum);
                if (n > runsPerPipeline) {
                    continue;
                }
                DriftState state = states.computeIfAbsent(pipeline, p -> new DriftState());
                at = at.plusMillis(50);
                String model = n % 200 < 100 ? "text-embedding-3-small" : "text-embedding-3-large";
                EmbeddingDriftTracker.index(state, new IndexEmbedding(pipeline, "tenant-" + (n % INDEXES), model,
                        n % 200 < 100 ? 1536 : 3072, at));
                EmbeddingDriftTracker.run(state, run);
                long bytes = Json.writeBytes(state).length;
                if (n == 1_000) {
                    bytesAtThousand = Math.max(bytesAtThousand, bytes);
                }
                if (n == runsPerPipeline) {
                    bytesAtEnd = Math.max(bytesAtEnd, bytes);
                }
            }
        }
        BenchResults r = new BenchResults();
        r.put("drift_state_bytes_per_pipeline", bytesAtEnd, "embedding-drift state of the largest pipeline after "
                + runsPerPipeline + " runs and as many index-building calls over " + INDEXES + " indexes");
        r.put("drift_state_growth_after_1k_runs", bytesAtThousand == 0 ? Double.NaN
                : (double) bytesAtEnd / bytesAtThousand, "those bytes over the bytes after 1,000 runs: about 1 when "
                + "the state is bounded");
        return r;
    }
}
