package io.raglog.bench.e2e;

import io.raglog.checks.CachedEmbedder;
import io.raglog.checks.CheapChecks;
import io.raglog.checks.Embedder;
import io.raglog.checks.MiniLmEmbedder;
import io.raglog.checks.MiniLmModel;
import io.raglog.checks.SharedEmbedder;
import io.raglog.schemas.Run;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;

/**
 * The floor under the full job: the local embedding model alone, embedding exactly the texts the job's vector checks
 * had to embed for the same runs (the cache misses, in run order, one batch per run as the checks send them), on one
 * thread like one subtask.
 */
final class EmbeddingCeiling {

    /**
     * @param texts texts the model embedded in the timed window
     * @param batches model calls there
     * @param cpuMsPerRun CPU time of the embedding thread per run of the window: against the full job's embedding
     *     thread, it tells a model that ran slower there from one that waited for work
     * @param windowRuns the runs of the timed window
     */
    record Result(double runsPerSecond, long texts, long batches, double cpuMsPerRun, int windowRuns) {

        /** Texts per run of the window. */
        double textsPerRun() {
            return texts / (double) Math.max(1, windowRuns);
        }
    }

    private EmbeddingCeiling() {}

    /**
     * Times the model on the middle 80 % of the runs, the window the job's rate is taken over: the first runs miss the
     * cache far more often, and counting them here but not in the job would compare different work.
     *
     * @param runs in the order the job checked them (which texts miss the cache depends on it)
     */
    static Result measure(List<Run> runs) {
        List<List<String>> misses = cacheMisses(runs);
        int from = runs.size() / 10;
        int to = runs.size() * 9 / 10;
        List<List<String>> window = misses.subList(from, to);
        long texts = window.stream().mapToLong(List::size).sum();
        try (MiniLmEmbedder model = new MiniLmEmbedder()) {
            // warm-up on the runs before the window: the ONNX session's first calls are slow, a running job is past them
            for (List<String> batch : misses.subList(0, Math.min(from, 20))) {
                embed(model, batch);
            }
            ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
            long cpuStart = cpu.getCurrentThreadCpuTime();
            long start = System.nanoTime();
            for (List<String> batch : window) {
                embed(model, batch);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpuMs = (cpu.getCurrentThreadCpuTime() - cpuStart) / 1e6;
            return new Result(window.size() / seconds, texts, window.stream().filter(b -> !b.isEmpty()).count(),
                    cpuMs / Math.max(1, window.size()), window.size());
        }
    }

    /** Windows per ONNX call the bench tries for the batched ceiling; 1 is {@link #measure}'s own. */
    static final List<Integer> BATCH_SIZES = List.of(4, 8, 16);
    /** Runs whose texts one call of the batched ceiling embeds together, as a micro-batcher would collect them. */
    static final int RUNS_PER_CALL = 8;

    /** The batched ceiling at one batch size. */
    record Batched(double runsPerSecond, int batchSize) {}

    /**
     * The model alone at its best batch size, on the same texts and window as {@link #measure}: the texts of
     * {@value #RUNS_PER_CALL} runs at a time in one call, the shipped model sorting their windows by length and running
     * {@code batchSize} of them per ONNX call. Vectors then depend on a text's neighbours (the quantized model's scales
     * are per batch), which the job cannot accept; as a ceiling it says what batching would be worth.
     *
     * @param oneAtATime {@link #measure}'s result on the same runs: batch size 1, and the best when nothing beats it
     * @param batchSizes the batch sizes tried ({@link #BATCH_SIZES} in the bench), each on a model of its own
     */
    static Batched measureBatched(List<Run> runs, Result oneAtATime, List<Integer> batchSizes) {
        List<List<String>> misses = cacheMisses(runs);
        int from = runs.size() / 10;
        int to = runs.size() * 9 / 10;
        List<List<String>> calls = new ArrayList<>();
        for (int start = from; start < to; start += RUNS_PER_CALL) {
            List<String> call = new ArrayList<>();
            misses.subList(start, Math.min(to, start + RUNS_PER_CALL)).forEach(call::addAll);
            calls.add(call);
        }
        Batched best = new Batched(oneAtATime.runsPerSecond(), 1);
        for (int batchSize : batchSizes) {
            try (MiniLmEmbedder model = new MiniLmEmbedder(MiniLmModel.SHIPPED, batchSize,
                    MiniLmEmbedder.DEFAULT_MAX_WINDOWS, 1)) {
                for (List<String> call : calls.subList(0, Math.min(calls.size(), 3))) {
                    embed(model, call); // warm-up, as above
                }
                long start = System.nanoTime();
                for (List<String> call : calls) {
                    embed(model, call);
                }
                double rate = (to - from) / ((System.nanoTime() - start) / 1e9);
                if (rate > best.runsPerSecond()) {
                    best = new Batched(rate, batchSize);
                }
            }
        }
        return best;
    }

    private static void embed(Embedder model, List<String> batch) {
        if (!batch.isEmpty()) {
            model.embed(batch);
        }
    }

    /** What the vector checks ask the model for, found by running them against a model that only records. */
    static List<List<String>> cacheMisses(List<Run> runs) {
        Recording recording = new Recording();
        CheapChecks checks = new CheapChecks(new CachedEmbedder(recording, SharedEmbedder.DEFAULT_CACHE_ENTRIES));
        List<List<String>> perRun = new ArrayList<>();
        for (Run run : runs) {
            recording.batches.clear();
            checks.apply(run);
            List<String> texts = new ArrayList<>();
            recording.batches.forEach(texts::addAll);
            perRun.add(texts); // one entry per run, empty when every text was cached
        }
        return perRun;
    }

    /** Records what it is asked to embed and answers with a fixed unit vector. */
    private static final class Recording implements Embedder {
        final List<List<String>> batches = new ArrayList<>();
        private final float[] unit = unit();

        @Override
        public String id() {
            return "recording";
        }

        @Override
        public int dimensions() {
            return unit.length;
        }

        @Override
        public List<float[]> embed(List<String> texts) {
            batches.add(List.copyOf(texts));
            List<float[]> out = new ArrayList<>(texts.size());
            texts.forEach(t -> out.add(unit));
            return out;
        }

        private static float[] unit() {
            float[] v = new float[384];
            v[0] = 1;
            return v;
        }
    }
}
