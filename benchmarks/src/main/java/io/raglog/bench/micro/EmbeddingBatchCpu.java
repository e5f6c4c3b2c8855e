package io.raglog.bench.micro;

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
        models.keySet().forEach(k -> msPerText.put(k, new double[rounds]));
        int chunk = EmbeddingBatchBenchmarks.TEXTS;
        for (int r = -2; r < rounds; r++) { // two rounds of warm-up
            int from = Math.floorMod(r, texts.size() / chunk) * chunk;
            List<String> call = new ArrayList<>(texts.subList(from, from + chunk));
            for (Map.Entry<String, MiniLmEmbedder> e : models.entrySet()) {
                long start = cpu.getCurrentThreadCpuTime();
                e.getValue().embed(call);
                if (r >= 0) {
                    msPerText.get(e.getKey())[r] = (cpu.getCurrentThreadCpuTime() - start) / 1e6 / chunk;
                }
            }
        }
        System.out.printf("%d texts in the pool, %d per call, %d rounds; CPU ms per text: median (min)%n",
                texts.size(), chunk, rounds);
        for (Map.Entry<String, double[]> e : msPerText.entrySet()) {
            double[] v = e.getValue().clone();
            Arrays.sort(v);
            System.out.printf("%-20s %8.3f (%8.3f)  texts/s per core %7.1f%n", e.getKey(), v[v.length / 2], v[0],
                    1000 / v[v.length / 2]);
        }
        models.values().forEach(MiniLmEmbedder::close);
    }
}
