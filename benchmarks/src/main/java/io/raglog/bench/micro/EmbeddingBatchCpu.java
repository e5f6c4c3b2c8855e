package io.raglog.bench.micro;

import io.raglog.checks.Embedder;
import io.raglog.checks.MiniLmEmbedder;
import io.raglog.checks.MiniLmModel;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link EmbeddingBatchBenchmarks}' comparison by the thread's CPU time rather than wall time, every configuration
 * taking its turn on the same texts round after round: on a machine others are loading, wall-time throughput mostly
 * measures them, while CPU per text and the interleaving keep the comparison within one run fair.
 * Each configuration's vectors are also set against its own model's at batch size 1 on the same texts: how far
 * batching moves a text's vector (the quantized model's per-batch scales; the fp32 model's float rounding).
 * {@code java -cp ... io.raglog.bench.micro.EmbeddingBatchCpu [rounds]}
 */
public final class EmbeddingBatchCpu {

    private static final int[] BATCHES = {1, 4, 8, 16, 32};

    private EmbeddingBatchCpu() {}

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 12;
        List<String> texts = EmbeddingBatchBenchmarks.missedTexts(SimulatedTraffic.generate(200, 7));
        Map<String, MiniLmEmbedder> models = new LinkedHashMap<>();
        for (MiniLmModel m : MiniLmModel.values()) {
            for (int b : BATCHES) {
                models.put(m + " batch " + b, new MiniLmEmbedder(m, b, MiniLmEmbedder.DEFAULT_MAX_WINDOWS, 1));
            }
        }
        ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
        Map<String, double[]> msPerText = new LinkedHashMap<>();
        Map<String, double[]> drift = new LinkedHashMap<>(); // {min cosine, max |difference| of a dimension}
        models.keySet().forEach(k -> msPerText.put(k, new double[rounds]));
        int chunk = EmbeddingBatchBenchmarks.TEXTS;
        for (int r = -2; r < rounds; r++) { // two rounds of warm-up
            int from = Math.floorMod(r, texts.size() / chunk) * chunk;
            List<String> call = new ArrayList<>(texts.subList(from, from + chunk));
            Map<MiniLmModel, List<float[]>> alone = new LinkedHashMap<>();
            for (Map.Entry<String, MiniLmEmbedder> e : models.entrySet()) {
                long start = cpu.getCurrentThreadCpuTime();
                List<float[]> vectors = e.getValue().embed(call);
                long used = cpu.getCurrentThreadCpuTime() - start;
                if (r < 0) {
                    continue;
                }
                msPerText.get(e.getKey())[r] = used / 1e6 / chunk;
                // batch size 1 comes first for each model: the reference its batches are set against
                List<float[]> reference = alone.computeIfAbsent(MiniLmModel.valueOf(e.getKey().split(" ")[0]),
                        m -> vectors);
                double[] d = drift.computeIfAbsent(e.getKey(), k -> new double[] {1, 0});
                for (int i = 0; i < vectors.size(); i++) {
                    d[0] = Math.min(d[0], Embedder.cosine(vectors.get(i), reference.get(i)));
                    for (int j = 0; j < vectors.get(i).length; j++) {
                        d[1] = Math.max(d[1], Math.abs(vectors.get(i)[j] - reference.get(i)[j]));
                    }
                }
            }
        }
        System.out.printf("%d texts in the pool, %d per call, %d rounds; CPU ms per text: median (min)%n",
                texts.size(), chunk, rounds);
        for (Map.Entry<String, double[]> e : msPerText.entrySet()) {
            double[] v = e.getValue().clone();
            Arrays.sort(v);
            double[] d = drift.get(e.getKey());
            System.out.printf("%-20s %8.3f (%8.3f)  texts/s per core %7.1f  vs batch 1: min cosine %.9f, "
                    + "max |diff| %.3g%n", e.getKey(), v[v.length / 2], v[0], 1000 / v[v.length / 2], d[0], d[1]);
        }
        models.values().forEach(MiniLmEmbedder::close);
    }
}
