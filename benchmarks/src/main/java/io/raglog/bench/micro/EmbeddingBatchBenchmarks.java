package io.raglog.bench.micro;

import io.raglog.checks.CachedEmbedder;
import io.raglog.checks.CheapChecks;
import io.raglog.checks.Embedder;
import io.raglog.checks.MiniLmEmbedder;
import io.raglog.checks.MiniLmModel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * Which model, at which batch size, embeds the job's texts fastest per core: the texts the vector checks of simulated
 * runs actually send to the model (their cache misses, in run order, past the cold start), {@value #TEXTS} at a time
 * as a micro-batcher would collect them, each model on one intra-op thread. One op = one text.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class EmbeddingBatchBenchmarks {

    /** Texts per call: about eight runs' misses. */
    static final int TEXTS = 32;
    private static final int RUNS = 200;
    private static final long SEED = 7;

    @Param({"QUANTIZED", "FP32"})
    public MiniLmModel model;

    /** Windows per ONNX run. */
    @Param({"1", "4", "8", "16", "32"})
    public int batch;

    private MiniLmEmbedder embedder;
    private List<String> texts;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        texts = missedTexts(SimulatedTraffic.generate(RUNS, SEED));
        embedder = new MiniLmEmbedder(model, batch, MiniLmEmbedder.DEFAULT_MAX_WINDOWS, 1);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        embedder.close();
    }

    @Benchmark
    @OperationsPerInvocation(TEXTS)
    public List<float[]> embedTexts() {
        List<String> call = new ArrayList<>(TEXTS);
        for (int i = 0; i < TEXTS; i++) {
            next = (next + 1) % texts.size();
            call.add(texts.get(next));
        }
        return embedder.embed(call);
    }

    /** The texts the vector checks ask the model for, in run order, past the first tenth of the runs (cold cache). */
    static List<String> missedTexts(SimulatedTraffic traffic) {
        List<String> asked = new ArrayList<>();
        Embedder recording = new Embedder() {
            @Override
            public String id() {
                return "recording";
            }

            @Override
            public int dimensions() {
                return 384;
            }

            @Override
            public List<float[]> embed(List<String> batch) {
                asked.addAll(batch);
                List<float[]> out = new ArrayList<>();
                batch.forEach(t -> {
                    float[] v = new float[384];
                    v[0] = 1;
                    out.add(v);
                });
                return out;
            }
        };
        CheapChecks checks = new CheapChecks(new CachedEmbedder(recording, 100_000));
        List<SimulatedTraffic.LinkedRun> runs = traffic.runs();
        for (int i = 0; i < runs.size(); i++) {
            if (i == runs.size() / 10) {
                asked.clear();
            }
            checks.apply(runs.get(i).run());
        }
        return asked;
    }
}
