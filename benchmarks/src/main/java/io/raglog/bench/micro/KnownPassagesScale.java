package io.raglog.bench.micro;

import io.raglog.bench.BenchResults;
import io.raglog.bench.Machine;
import io.raglog.drift.IndexEmbedding;
import io.raglog.knowledge.IndexBuildingCall;
import io.raglog.knowledge.IndexedPassages;
import io.raglog.knowledge.KnownPassagesFunction;
import io.raglog.schemas.Run;
import io.raglog.simulator.corpus.CorpusLoader;
import io.raglog.simulator.corpus.Document;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.state.rocksdb.EmbeddedRocksDBStateBackend;
import org.apache.flink.streaming.api.operators.co.KeyedCoProcessOperator;
import org.apache.flink.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import org.apache.flink.types.Either;

/**
 * What the known passages cost as a pipeline's knowledge base grows: the operator alone, on RocksDB (the job's state
 * backend) in Flink's operator test harness, fed index-building calls of 100 passages until it knows
 * {@link #SMALL} and then {@link #LARGE} passages, with the simulated runs of one pipeline looked up at each size.
 * The passages are the shipped corpus's sentences, three to six drawn at random per passage: far more passages than
 * the corpus has paragraphs, so their words repeat more than a real corpus's, a harsh case for the word lists.
 * Learning is timed per passage
 * over each stretch, a lookup per run (its second opinion, then the passages it was handed, which are known by then).
 * The heap the operator keeps per passage (its word index) is the live heap after a full collection, before and after.
 */
public final class KnownPassagesScale {

    static final int SMALL = 1_000;
    static final int LARGE = 20_000;
    private static final int BATCH = 100;
    private static final int WARM_UP_RUNS = 200;
    private static final int LOOK_UP_BLOCKS = 5;

    private KnownPassagesScale() {}

    private record AtSize(double learnMicrosPerPassage, double lookUpMicrosPerRun) {}

    /**
     * CPU time of this thread, which runs the operator. Not wall time: RocksDB flushes and compacts what a stretch
     * wrote on threads of its own, in bursts, and on two cores a burst during a block of lookups tripled its wall
     * time in some JVMs and not in others. Their CPU is RocksDB's, not the lookups'.
     */
    private static long cpuNanos() {
        return ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
    }

    /** The corpus's sentences, to draw passages from, and one pipeline's simulated runs, to look up. */
    private record Inputs(List<String> sentences, List<Run> runs) {}

    public static BenchResults measure(long seed) throws Exception {
        Inputs inputs = inputs(seed);
        List<String> sentences = inputs.sentences();
        List<Run> runs = inputs.runs();
        String pipeline = runs.get(0).pipeline();
        Random random = new Random(seed);
        try (var h = new KeyedTwoInputStreamOperatorTestHarness<String, Run, IndexBuildingCall,
                Either<Run, IndexEmbedding>>(new KeyedCoProcessOperator<>(new KnownPassagesFunction()),
                Run::pipeline, IndexBuildingCall::pipeline, Types.STRING)) {
            h.setStateBackend(new EmbeddedRocksDBStateBackend());
            h.setup(KnownPassagesFunction.OUTPUT.createSerializer(h.getExecutionConfig().getSerializerConfig()));
            h.open();
            double liveBefore = Machine.leastLiveHeapMb();
            AtSize small = grow(h, pipeline, sentences, random, 0, SMALL, runs);
            AtSize large = grow(h, pipeline, sentences, random, SMALL, LARGE, runs);
            double liveAfter = Machine.leastLiveHeapMb();
            BenchResults r = new BenchResults();
            String setting = " (RocksDB, the operator alone in Flink's test harness)";
            r.put("known_passages_learn_us_per_passage_1k", small.learnMicrosPerPassage(),
                    "learning an indexed passage, over the first 1,000" + setting);
            r.put("known_passages_learn_us_per_passage_20k", large.learnMicrosPerPassage(),
                    "the same, from 1,000 to 20,000 known" + setting);
            r.put("known_passages_lookup_us_per_run_1k", small.lookUpMicrosPerRun(),
                    "a run's second opinion and its passages learned, at 1,000 known" + setting);
            r.put("known_passages_lookup_us_per_run_20k", large.lookUpMicrosPerRun(),
                    "the same at 20,000 known" + setting);
            r.put("known_passages_lookup_20k_over_1k", large.lookUpMicrosPerRun() / small.lookUpMicrosPerRun(),
                    "how a lookup's cost grows with 20 times the passages");
            r.put("known_passages_heap_bytes_per_passage", (liveAfter - liveBefore) * 1024 * 1024 / LARGE,
                    "live heap after a full collection, after over before, per passage known (the word index)");
            return r;
        }
    }

    /**
     * Made in a method of their own, so that what they are made from (the corpus, the other pipelines' runs) is
     * garbage before the heap is measured.
     */
    private static Inputs inputs(long seed) {
        List<String> sentences = new ArrayList<>();
        for (Document d : CorpusLoader.loadShipped().documents()) {
            for (String s : d.text().split("(?<=[.!?])\\s+")) {
                if (s.length() > 20) {
                    sentences.add(s);
                }
            }
        }
        return new Inputs(sentences, onePipelinesRuns(seed));
    }

    /** The simulated runs of the pipeline with the most complete runs, so that they all share one knowledge base. */
    private static List<Run> onePipelinesRuns(long seed) {
        Map<String, List<Run>> byPipeline = SimulatedTraffic.generate(2_000, seed).runs().stream()
                .map(SimulatedTraffic.LinkedRun::run)
                .filter(r -> !r.incomplete() && r.question() != null)
                .collect(Collectors.groupingBy(Run::pipeline));
        return byPipeline.values().stream().max(Comparator.comparingInt(List::size)).orElseThrow();
    }

    /** Indexes passages from {@code from} known to {@code to}, then looks the runs up at that size. */
    private static AtSize grow(KeyedTwoInputStreamOperatorTestHarness<String, Run, IndexBuildingCall,
            Either<Run, IndexEmbedding>> h, String pipeline, List<String> sentences, Random random, int from, int to,
            List<Run> runs) throws Exception {
        Instant at = Instant.parse("2026-01-01T00:00:00Z");
        long start = cpuNanos();
        for (int known = from; known < to; known += BATCH) {
            List<String> batch = new ArrayList<>(BATCH);
            for (int i = 0; i < BATCH; i++) {
                StringBuilder p = new StringBuilder();
                int n = 3 + random.nextInt(4);
                for (int k = 0; k < n; k++) {
                    p.append(sentences.get(random.nextInt(sentences.size()))).append(' ');
                }
                batch.add(p.toString().strip());
            }
            h.processElement2(IndexBuildingCall.of(null, new IndexedPassages(pipeline, batch, at)),
                    at.toEpochMilli());
        }
        double learn = (cpuNanos() - start) / 1e3 / (to - from);
        for (int i = 0; i < WARM_UP_RUNS; i++) {
            h.processElement1(runs.get(i % runs.size()), at.toEpochMilli());
        }
        h.getOutput().clear();
        // the median of five blocks of lookups: a block can meet the JIT or a collection
        double[] blocks = new double[LOOK_UP_BLOCKS];
        int next = WARM_UP_RUNS;
        for (int b = 0; b < LOOK_UP_BLOCKS; b++) {
            long lookUps = cpuNanos();
            for (int i = 0; i < runs.size(); i++) {
                h.processElement1(runs.get(next++ % runs.size()), at.toEpochMilli());
            }
            blocks[b] = (cpuNanos() - lookUps) / 1e3 / runs.size();
            h.getOutput().clear();
        }
        Arrays.sort(blocks);
        return new AtSize(learn, blocks[LOOK_UP_BLOCKS / 2]);
    }
}
