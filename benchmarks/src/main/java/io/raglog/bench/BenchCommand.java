package io.raglog.bench;

import io.raglog.bench.e2e.EndToEnd;
import io.raglog.bench.micro.DriftStateSize;
import io.raglog.bench.micro.BundleHeap;
import io.raglog.bench.micro.KnownPassagesScale;
import io.raglog.bench.micro.MicroBenchmarks;
import io.raglog.bench.review.ReviewBench;
import io.raglog.schemas.Json;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code ./raglog bench}: the micro-benchmarks (JMH) and the end-to-end figures with their ceilings, measured in one
 * run, written as flat JSON keys and a markdown table.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
        description = "Measure raglog: JMH micro-benchmarks, and end to end on a local broker + Flink cluster with "
                + "ceilings measured in the same run. Writes flat JSON keys and a markdown table.")
public final class BenchCommand implements Callable<Integer> {

    @Option(names = "--quick", description = "Fewer runs, one short JMH fork per benchmark: about 3 minutes.")
    boolean quick;

    @Option(names = "--out", paramLabel = "FILE.json", defaultValue = "benchmarks/target/bench/bench.json",
            description = "Where the JSON goes; the markdown table is written next to it (.md). Default: ${DEFAULT-VALUE}")
    Path out;

    @Option(names = "--skip-micro", description = "Only the end-to-end figures.")
    boolean skipMicro;

    @Option(names = "--skip-e2e", description = "Only the micro-benchmarks.")
    boolean skipEndToEnd;

    @Option(names = "--skip-review",
            description = "Without the review page's figures (they need the system's chromium and chromium-driver).")
    boolean skipReview;

    @Option(names = "--own-cpu-only", description = "Only raglog's own CPU and allocation per run against its I/O: the "
            + "warm-up and the passthrough / no-vector pairs, then stop (about 3 minutes with the full run's settings). "
            + "To compare two builds on them (scripts/bench-alternate.sh).")
    boolean ownCpuOnly;

    /** Every figure a run produces: the flat keys, their ceilings and the micro-benchmarks'. */
    static final java.util.List<String> KEYS = java.util.List.of(
            "passthrough_runs_per_s", "passthrough_input_rounds", "passthrough_messages_copied",
            "warm_up_no_vector_runs_per_s_1", "no_vector_runs_per_s",
            "no_vector_over_passthrough", "passthrough_cpu_ms_per_run", "no_vector_cpu_ms_per_run",
            "passthrough_cpu_cores", "no_vector_cpu_cores", "no_vector_cpu_ms_per_run_assembly_task",
            "no_vector_cpu_ms_per_run_source_tasks", "no_vector_cpu_ms_per_run_jvm",
            "no_vector_over_passthrough_by_cpu", "no_vector_over_passthrough_by_cpu_without_endpoint",
            "own_cpu_ms_per_run_no_vector", "io_cpu_ms_per_run_no_vector",
            "io_cpu_ms_per_run_no_vector_without_endpoint", "own_over_io_cpu_no_vector",
            "alloc_bytes_per_run_no_vector",
            "backlog_runs", "backlog_verdicts", "backlog_no_vector_runs_per_s", "backlog_over_no_vector",
            "embedding_bound_runs_per_s", "full_runs_per_s", "full_over_embedding_bound",
            "batched_embedding_bound_runs_per_s", "batched_embedding_bound_batch_size",
            "full_over_batched_embedding_bound",
            "embedding_texts_per_run", "embedding_bound_cpu_ms_per_run", "full_cpu_ms_per_run",
            "full_cpu_ms_per_run_embedding", "full_texts_embedded_per_run", "full_embedding_thread_busy",
            "llm_bound_runs_per_s", "llm_bound_ratio", "full_llm_runs_per_s", "latency_p50_ms", "latency_p99_ms",
            "p99_minus_llm_ms", "latency_assembly_p50_ms", "latency_checks_p50_ms",
            "llm_calls_per_run_default", "llm_calls_per_run_economy", "llm_calls_per_run_tiered",
            "llm_usd_per_1k_runs_default", "llm_usd_per_1k_runs_economy", "llm_usd_per_1k_runs_tiered",
            "llm_tier_skip_share", "llm_calls_saved_tiered_vs_default", "state_bytes_per_open_run",
            "heap_used_max_mb_under_load", "heap_live_mb_latency_job_running",
            "passthrough_runs_per_s_p2", "full_runs_per_s_p2",
            "load_average_before", "load_average_after",
            "micro_decode_classify_call_ops_per_s", "micro_assemble_run_ops_per_s", "micro_rule_checks_ops_per_s",
            "micro_embed_passage_cold_ops_per_s", "micro_embed_passage_cached_ops_per_s",
            "micro_feature_assembly_ops_per_s", "micro_score_run_ops_per_s",
            "micro_decode_classify_call_alloc_bytes_per_op", "micro_score_run_alloc_bytes_per_op",
            "micro_llm_requests_ops_per_s", "micro_llm_requests_alloc_bytes_per_op", "micro_parse_prompt_ops_per_s",
            "micro_parse_prompt_alloc_bytes_per_op",
            "drift_state_bytes_per_pipeline", "drift_state_growth_after_1k_runs",
            "known_passages_learn_us_per_passage_1k", "known_passages_learn_us_per_passage_20k",
            "known_passages_lookup_us_per_run_1k", "known_passages_lookup_us_per_run_20k",
            "known_passages_lookup_20k_over_1k", "known_passages_heap_bytes_per_passage",
            "bundle_heap_mb_loaded", "bundle_heap_mb_scoring",
            "review_queued_runs", "review_submit_p50_ms", "review_round_trip_p50_ms", "review_round_trip_max_ms",
            "review_first_paint_ms", "review_queue_drawn_ms");

    /**
     * The own CPU and allocation against the I/O: left out, and said so in the log, when no no-vector job's window
     * holds two of the CPU account's samples (100 ms apart), as a tiny run's may not on a loaded machine.
     */
    static final java.util.List<String> OWN_CPU_KEYS = java.util.List.of("own_cpu_ms_per_run_no_vector",
            "io_cpu_ms_per_run_no_vector", "io_cpu_ms_per_run_no_vector_without_endpoint", "own_over_io_cpu_no_vector",
            "alloc_bytes_per_run_no_vector");

    /** Keys present with no value yet (none at the moment; a key listed here is written as null, never made up). */
    static final java.util.Set<String> NOT_YET_MEASURED = java.util.Set.of();

    MicroBenchmarks.Settings micro;
    ReviewBench.Options review;

    private final PrintStream log;

    public BenchCommand() {
        this(System.out);
    }

    BenchCommand(PrintStream log) {
        this.log = log;
    }

    @Override
    public Integer call() throws Exception {
        EndToEnd.Options e2e = quick ? EndToEnd.Options.quick() : EndToEnd.Options.full();
        BenchResults results = measure(ownCpuOnly ? e2e.onlyOwnCpu() : e2e);
        write(results, out);
        log.println();
        log.print(results.toMarkdown());
        log.println();
        log.println("written: " + out + " and " + markdownPath(out));
        return 0;
    }

    BenchResults measure(EndToEnd.Options e2e) throws Exception {
        BenchResults r = new BenchResults();
        long start = System.nanoTime();
        r.put("mode", quick ? "quick" : "full", "--quick: fewer runs, short JMH iterations");
        r.put("measured_at", Instant.now().toString(), "");
        r.put("machine_cores", Machine.cores(), "available processors");
        r.put("load_average_before", Machine.loadAverage(), "1-minute load average (the machine is shared)");
        if (!skipEndToEnd) {
            log.println("end to end: broker + local Flink, " + e2e.runs() + " simulated runs");
            r.putAll(new EndToEnd(e2e, log).run());
        }
        if (!skipMicro && !e2e.ownCpuOnly()) {
            log.println("micro-benchmarks (JMH, -prof gc)");
            r.putAll(MicroBenchmarks.run(micro != null ? micro
                    : quick ? MicroBenchmarks.Settings.QUICK : MicroBenchmarks.Settings.FULL));
            log.println("embedding-drift state per pipeline");
            r.putAll(DriftStateSize.measure(quick ? 5_000 : 20_000, 7));
            log.println("known passages as a knowledge base grows");
            r.putAll(KnownPassagesScale.measure(7));
            log.println("the model bundle's heap");
            r.putAll(BundleHeap.measure());
        }
        if (!skipReview && !e2e.ownCpuOnly()) {
            log.println("review page: broker, Elasticsearch node, headless Chromium");
            r.putAll(new ReviewBench(review != null ? review
                    : quick ? ReviewBench.Options.quick() : ReviewBench.Options.full(), log).run());
        }
        r.put("load_average_after", Machine.loadAverage(), "1-minute load average (the machine is shared)");
        r.put("bench_seconds", (System.nanoTime() - start) / 1e9, "wall time of this benchmark run");
        return r;
    }

    static void write(BenchResults results, Path json) throws java.io.IOException {
        if (json.toAbsolutePath().getParent() != null) {
            Files.createDirectories(json.toAbsolutePath().getParent());
        }
        Files.writeString(json, Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(results.toJson()));
        Files.writeString(markdownPath(json), results.toMarkdown());
    }

    static Path markdownPath(Path json) {
        String name = json.getFileName().toString();
        String base = name.endsWith(".json") ? name.substring(0, name.length() - 5) : name;
        return json.resolveSibling(base + ".md");
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new BenchCommand()).execute(args));
    }
}
