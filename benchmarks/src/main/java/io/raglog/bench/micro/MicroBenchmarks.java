package io.raglog.bench.micro;

import io.raglog.bench.BenchResults;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/** Runs {@link RaglogBenchmarks} through JMH (forked JVMs, GC profiler) and reports ops/s and bytes allocated per op. */
public final class MicroBenchmarks {

    /** JMH method name → the flat key prefix and what one op is. */
    private static final Map<String, String[]> KEYS = Map.of(
            "decodeAndClassifyCall", new String[] {"micro_decode_classify_call", "decode + classify one call"},
            "assembleRun", new String[] {"micro_assemble_run", "link one run's calls into a run (RunLinker)"},
            "ruleChecks", new String[] {"micro_rule_checks", "rule checks of one run"},
            "embedPassageCold", new String[] {"micro_embed_passage_cold", "embed one passage with the model"},
            "embedPassageCached", new String[] {"micro_embed_passage_cached", "embed one passage, cache hit"},
            "assembleFeatures", new String[] {"micro_feature_assembly", "assemble one run's feature vector"},
            "scoreRun", new String[] {"micro_score_run", "score one run with the shipped bundle"},
            "llmRequests", new String[] {"micro_llm_requests", "build one run's LLM judge requests (prompts, bodies)"},
            "parsePrompt", new String[] {"micro_parse_prompt", "read one chat prompt's question and context block"});

    private static final List<String> ORDER = List.of("decodeAndClassifyCall", "assembleRun", "ruleChecks",
            "embedPassageCold", "embedPassageCached", "assembleFeatures", "scoreRun", "llmRequests", "parsePrompt");

    /**
     * How long JMH measures.
     *
     * @param forks 0 runs in this JVM (only for the harness test: no isolation, figures not comparable)
     */
    public record Settings(int forks, int warmups, TimeValue warmupTime, int iterations, TimeValue iterationTime) {
        public static final Settings FULL = new Settings(1, 3, TimeValue.seconds(2), 5, TimeValue.seconds(2));
        public static final Settings QUICK = new Settings(1, 1, TimeValue.seconds(1), 2, TimeValue.seconds(1));
        public static final Settings TINY = new Settings(0, 0, TimeValue.milliseconds(50), 1,
                TimeValue.milliseconds(100));
    }

    private MicroBenchmarks() {}

    public static BenchResults run(Settings s) throws RunnerException {
        ChainedOptionsBuilder options = new OptionsBuilder()
                .include(RaglogBenchmarks.class.getName() + ".*")
                .addProfiler(GCProfiler.class)
                .forks(s.forks())
                .jvmArgs("-Xmx1g", "-XX:+UseParallelGC")
                .warmupIterations(s.warmups())
                .warmupTime(s.warmupTime())
                .measurementIterations(s.iterations())
                .measurementTime(s.iterationTime())
                .shouldFailOnError(true);
        Collection<RunResult> results = new Runner(options.build()).run();
        BenchResults out = new BenchResults();
        for (String method : ORDER) {
            RunResult r = results.stream()
                    .filter(x -> x.getParams().getBenchmark().endsWith("." + method))
                    .findFirst().orElse(null);
            String[] key = KEYS.get(method);
            if (r == null) {
                out.put(key[0] + "_ops_per_s", Double.NaN, key[1] + ": not measured");
                continue;
            }
            Result<?> primary = r.getPrimaryResult();
            out.put(key[0] + "_ops_per_s", primary.getScore(), key[1] + " (ops/s, JMH)");
            Result<?> alloc = r.getSecondaryResults().get("gc.alloc.rate.norm");
            out.put(key[0] + "_alloc_bytes_per_op", alloc == null ? Double.NaN : alloc.getScore(),
                    key[1] + " (bytes allocated per op, -prof gc)");
        }
        return out;
    }
}
