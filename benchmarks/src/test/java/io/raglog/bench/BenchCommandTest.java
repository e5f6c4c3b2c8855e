package io.raglog.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.withinPercentage;

import io.raglog.bench.e2e.EndToEnd;
import io.raglog.bench.micro.MicroBenchmarks;
import io.raglog.bench.review.ReviewBench;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keeps the harness honest: a tiny in-process run produces every figure. Timings are never asserted here. */
class BenchCommandTest {

    @TempDir
    Path dir;

    @Test
    void shouldProduceEveryKeyFromATinyRun() throws Exception {
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        BenchCommand command = new BenchCommand(new PrintStream(log, true));
        command.quick = true;
        command.micro = MicroBenchmarks.Settings.TINY;
        command.review = new ReviewBench.Options(30, 2, 1);
        // 80 runs: the jobs with vector checks (ten here, counting the ceilings) are bound by a model with a cold
        // cache, about 75 ms of CPU a run, so this test's time grows with its runs, and 80 produce every figure. The
        // batched ceiling at one batch size, not the bench's three: each size embeds the whole window again on a model
        // of its own, and one is enough to produce its figures. The latency run's steady load lasts 3 s (then its
        // fixed 10 s tail), which still measures a few dozen runs
        BenchResults results = command.measure(new EndToEnd.Options(80, 4, Duration.ofMillis(100),
                Duration.ofSeconds(3), 40, false, 3, 1, 2, 3, 90, List.of(8), false));
        Path json = dir.resolve("bench.json");
        BenchCommand.write(results, json);

        // 80 runs make windows of about a hundred ms: on a loaded machine every no-vector job's may fall inside one CPU
        // sampling period, and the bench then leaves its own-CPU keys out, all of them, and says so
        // (shouldStopOnceTheOwnCpuIsMeasured measures them over enough runs)
        boolean ownCpuLeftOut = Pattern.compile("\\b(\\d+) of \\1 no-vector jobs left out")
                .matcher(log.toString(StandardCharsets.UTF_8)).find();
        List<String> expected = BenchCommand.KEYS.stream()
                .filter(key -> !(ownCpuLeftOut && BenchCommand.OWN_CPU_KEYS.contains(key))).toList();
        if (ownCpuLeftOut) {
            assertThat(results.values()).doesNotContainKeys(BenchCommand.OWN_CPU_KEYS.toArray(String[]::new));
        }
        assertThat(results.values()).containsKeys(expected.toArray(String[]::new));
        for (String key : expected) {
            if (!BenchCommand.NOT_YET_MEASURED.contains(key)) {
                assertThat(results.number(key)).as(key).isNotNull();
            }
        }
        // two alternating pairs: the ratio is of the medians (each figure kept to 4 significant digits), and each
        // range holds its median
        assertThat(results.number("no_vector_over_passthrough")).isCloseTo(
                results.number("no_vector_runs_per_s") / results.number("passthrough_runs_per_s"), withinPercentage(0.2));
        // the passthrough copied the shared input three times over (RepeatedInput), every message each time
        assertThat(results.number("passthrough_messages_copied"))
                .isEqualTo(3 * results.number("input_messages"));
        assertThat(results.number("passthrough_runs_per_s")).isBetween(
                results.number("passthrough_runs_per_s_min"), results.number("passthrough_runs_per_s_max"));
        assertThat(results.number("no_vector_runs_per_s")).isBetween(
                results.number("no_vector_runs_per_s_min"), results.number("no_vector_runs_per_s_max"));
        // the full job and its ceiling alternate the same way
        assertThat(results.number("full_over_embedding_bound")).isCloseTo(
                results.number("full_runs_per_s") / results.number("embedding_bound_runs_per_s"), withinPercentage(0.2));
        // the batched ceiling is the better of batch size 1 (the ceiling above) and the batch sizes tried
        assertThat(results.number("full_over_batched_embedding_bound")).isCloseTo(
                results.number("full_runs_per_s") / results.number("batched_embedding_bound_runs_per_s"),
                withinPercentage(0.2));
        assertThat(results.number("batched_embedding_bound_batch_size")).isGreaterThanOrEqualTo(1);
        assertThat(results.number("full_runs_per_s")).isBetween(
                results.number("full_runs_per_s_min"), results.number("full_runs_per_s_max"));
        assertThat(results.number("embedding_bound_runs_per_s")).isBetween(
                results.number("embedding_bound_runs_per_s_min"), results.number("embedding_bound_runs_per_s_max"));
        // the CPU a run costs: its thread groups add up to the process's (each figure a median, kept to 4 significant
        // digits), the no-vector job's assembly thread worked, and the passthrough has no assembly thread at all
        for (String variant : new String[] {"passthrough", "no_vector", "full"}) {
            double groups = 0;
            for (String group : new String[] {"assembly_task", "source_tasks", "other_tasks", "kafka_clients",
                    "embedding", "llm_client", "llm_endpoint", "kafka_broker", "other_java", "jvm"}) {
                double ms = results.number(variant + "_cpu_ms_per_run_" + group);
                assertThat(ms).as(variant + " " + group).isGreaterThanOrEqualTo(0);
                groups += ms;
            }
            assertThat(groups).as(variant).isCloseTo(results.number(variant + "_cpu_ms_per_run"), withinPercentage(1));
        }
        if (!ownCpuLeftOut) {
            assertOwnAgainstIo(results, false);
        }
        // the backlog job read its own input to the end: a verdict for every run it was given
        assertThat(results.number("backlog_runs")).isEqualTo(90);
        assertThat(results.number("backlog_verdicts")).isEqualTo(90);
        assertThat(results.number("backlog_no_vector_runs_per_s")).isPositive();
        // the latency run's short load still measured runs: its quantiles are of something
        assertThat(results.number("latency_runs_measured")).isPositive();
        // the tasks after the assembly (known passages, checks, scoring, the sinks) wrote the verdicts the window is
        // taken on, so they worked in it. The assembly itself may not have: with 80 runs it can link the whole input
        // before the window opens (CpuAccountTest holds its thread's name to its group). A window inside one CPU
        // sampling period (the condition that leaves the own-CPU keys out) measures no thread's work reliably:
        // CI saw other_tasks at 0 on a loaded machine
        if (!ownCpuLeftOut) {
            assertThat(results.number("no_vector_cpu_ms_per_run_other_tasks")).isPositive();
        }
        // the local LLM endpoint answers before the verdicts are written, so in a window this short its work may all
        // fall before the window opens: shouldStopOnceTheOwnCpuIsMeasured holds it positive over enough runs
        assertThat(results.number("no_vector_cpu_ms_per_run_llm_endpoint")).isNotNegative();
        assertThat(results.number("passthrough_cpu_ms_per_run_assembly_task")).isZero();
        // only the full job runs the model: on its embedding thread, on the texts its cache missed; the ceiling's
        // thread did the same kind of work
        assertThat(results.number("full_cpu_ms_per_run_embedding")).isPositive();
        assertThat(results.number("no_vector_cpu_ms_per_run_embedding")).isZero();
        assertThat(results.number("full_texts_embedded_per_run")).isPositive();
        assertThat(results.number("full_embedding_thread_busy")).isPositive();
        assertThat(results.number("embedding_texts_per_run")).isPositive();
        assertThat(results.number("embedding_bound_cpu_ms_per_run")).isPositive();
        // the bundle loaded for scoring keeps less than loaded with its files, and something
        assertThat(results.number("bundle_heap_mb_scoring")).isPositive()
                .isLessThan(results.number("bundle_heap_mb_loaded"));
        assertThat(Files.readString(json)).contains("\"no_vector_over_passthrough\"", "\"state_bytes_per_open_run\"");
        assertThat(Files.readString(dir.resolve("bench.md"))).contains("| `full_over_embedding_bound` |");
    }

    /**
     * {@code --own-cpu-only}: the own CPU and allocation against the I/O, and nothing after them. Enough runs for the
     * no-vector job's window to hold several of the CPU account's samples, which are 100 ms apart.
     */
    @Test
    void shouldStopOnceTheOwnCpuIsMeasured() throws Exception {
        BenchCommand command = new BenchCommand(new PrintStream(new ByteArrayOutputStream(), true));
        command.quick = true;
        BenchResults results = command.measure(new EndToEnd.Options(500, 4, Duration.ofMillis(100),
                Duration.ofSeconds(3), 40, false, 3, 1, 1, 2, 90, List.of(8), false).onlyOwnCpu());

        assertOwnAgainstIo(results, true);
        assertThat(results.number("no_vector_runs_per_s")).isPositive();
        assertThat(results.values()).doesNotContainKeys("full_runs_per_s", "latency_p99_ms",
                "micro_rule_checks_ops_per_s", "known_passages_lookup_us_per_run_1k", "review_first_paint_ms");
    }

    /** raglog's own work against the I/O (issue #27): the sums of their groups, and the ratio taken per job. */
    /** @param enoughRuns windows long enough that the local endpoint's work falls inside them */
    private static void assertOwnAgainstIo(BenchResults results, boolean enoughRuns) {
        assertThat(results.number("own_cpu_ms_per_run_no_vector")).isNotNull().isPositive();
        assertThat(results.number("io_cpu_ms_per_run_no_vector")).isNotNull().isPositive();
        double withoutEndpoint = results.number("io_cpu_ms_per_run_no_vector_without_endpoint");
        if (enoughRuns) {
            assertThat(withoutEndpoint).isLessThan(results.number("io_cpu_ms_per_run_no_vector"));
        } else {
            assertThat(withoutEndpoint).isLessThanOrEqualTo(results.number("io_cpu_ms_per_run_no_vector"));
        }
        assertThat(results.number("own_over_io_cpu_no_vector")).isNotNull().isPositive();
        assertThat(results.number("alloc_bytes_per_run_no_vector")).isNotNull().isPositive();
    }
}
