package io.raglog.checkstage;

import io.raglog.checks.CheckedRun;
import io.raglog.checks.FeatureAssembler;
import io.raglog.checks.RunChecked;
import io.raglog.checks.SharedEmbedder;
import io.raglog.llm.Judge;
import io.raglog.llm.Judges;
import io.raglog.llm.LlmChecks;
import io.raglog.llm.LlmResult;
import io.raglog.llm.ProviderKind;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.RunFeatures;
import io.raglog.score.flink.BundleLocation;
import io.raglog.score.flink.TierGateStep;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Gauge;
import org.apache.flink.metrics.Histogram;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.apache.flink.runtime.metrics.DescriptiveStatisticsHistogram;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;

/**
 * The vector and LLM checks of a run, asynchronously: the judge's five calls go out together, the run's texts are
 * embedded meanwhile on the subtask's embedding thread ({@link VectorStep}), and the run's features are assembled when
 * both are back. A run costs about the longer of the two, not their sum, and the task thread never waits on the model.
 * In tiered mode the calls wait for the vectors instead: the tier gate reads them first ({@link TierGateStep}).
 * Always completes with a result: unanswered checks and the operator's timeout give missing features and
 * {@code degraded: true}, never a lost run and never a failed job.
 */
public final class LlmChecksFunction extends RichAsyncFunction<CheckedRun, RunChecked> {

    private static final long serialVersionUID = 1L;

    /** Latency percentiles are over the last this-many runs. */
    private static final int LATENCY_WINDOW = 1024;

    private final ChecksSettings settings;
    private final BundleLocation gateBundle;
    private transient Judge judge;
    private transient VectorStep vectorStep;
    private transient TierGateStep gate;
    private transient LlmChecks checks;
    private transient boolean holdsEmbedder;
    private transient Counter degradedRuns;
    private transient Counter tierSkipped;
    private transient Counter calls;
    private transient Counter inputTokens;
    private transient Counter outputTokens;
    private transient Counter costMicroUsd;
    private transient Histogram runLatencyMs;

    /**
     * @param gateBundle tiered mode: the bundle whose tier gate decides, once a run's vectors are known, whether it
     *     gets the LLM checks; null: every run does
     */
    public LlmChecksFunction(ChecksSettings settings, BundleLocation gateBundle) {
        this.settings = settings;
        this.gateBundle = gateBundle;
    }

    @Override
    public void open(OpenContext openContext) {
        holdsEmbedder = settings.llm().provider() == ProviderKind.OFFLINE;
        // The HTTP client (or, offline, the shared embedding model) is built once per task, here.
        judge = Judges.create(settings.llm(),
                holdsEmbedder ? SharedEmbedder.acquire(settings.embeddingCacheEntries(), settings.embeddingThreads())
                        : null);
        checks = new LlmChecks(judge, settings.llm().economy());
        MetricGroup group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("checks");
        if (settings.vectorChecks()) {
            Counter cheapFailures = group.counter("cheap_check_failures", new ThreadSafeSimpleCounter());
            vectorStep = new VectorStep(settings.embeddingCacheEntries(), settings.embeddingThreads(),
                    "raglog-embed-" + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask(),
                    e -> cheapFailures.inc());
            // texts the task manager's shared vector cache missed: what the embedding model was asked to embed. The
            // cache-size advice in docs/operations.md reads this against the runs checked
            group.gauge("embedding_vector_cache_misses", (Gauge<Long>) SharedEmbedder::misses);
        }
        if (gateBundle != null) {
            gate = TierGateStep.open(gateBundle, vectorStep != null, getRuntimeContext().getMetricGroup());
        }
        degradedRuns = group.counter("degraded_runs", new ThreadSafeSimpleCounter());
        tierSkipped = group.counter("llm_tier_skipped_runs", new ThreadSafeSimpleCounter());
        calls = group.counter("llm_calls", new ThreadSafeSimpleCounter());
        inputTokens = group.counter("llm_input_tokens", new ThreadSafeSimpleCounter());
        outputTokens = group.counter("llm_output_tokens", new ThreadSafeSimpleCounter());
        // cost as a counter of micro-dollars: Flink counters are longs, and dashboards divide by 1e6
        costMicroUsd = group.counter("llm_cost_micro_usd", new ThreadSafeSimpleCounter());
        // wall time from issuing a run's checks to the last answer: about one call's latency when they overlap
        runLatencyMs = group.histogram("llm_run_latency_ms", new DescriptiveStatisticsHistogram(LATENCY_WINDOW));
    }

    @Override
    public void asyncInvoke(CheckedRun input, ResultFuture<RunChecked> resultFuture) {
        if (LlmUsage.TIER_SKIPPED.equals(input.tier())) {
            // decided by a tier gate before it reached this operator (in-flight state of a version whose gate was an
            // operator of its own): it bypasses the judge, no call is made
            tierSkipped.inc();
            resultFuture.complete(List.of(emit(input, checks.skipped())));
            return;
        }
        CompletableFuture<CheckedRun> cheap =
                vectorStep == null ? CompletableFuture.completedFuture(input) : vectorStep.apply(input);
        CompletableFuture<LlmResult> pending;
        if (gate != null && gate.active()) {
            // Tiered: the gate reads the vector features, so the calls wait for them; gate and calls are issued on the
            // embedding thread, and a run the gate decides makes none.
            cheap = cheap.thenApply(gate::mark);
            pending = cheap.thenCompose(checked -> {
                if (LlmUsage.TIER_SKIPPED.equals(checked.tier())) {
                    tierSkipped.inc();
                    return CompletableFuture.completedFuture(checks.skipped());
                }
                return checks.run(checked.run());
            });
        } else if (vectorStep != null && holdsEmbedder) {
            // The offline judge embeds the run's texts too: after the vector checks, on their thread, it finds them
            // cached (and keeps the model on one thread per subtask).
            pending = cheap.thenComposeAsync(checked -> checks.run(checked.run()), vectorStep.executor());
        } else {
            try {
                // A remote judge only schedules its calls here, and they go out while the vectors are computed.
                // The offline judge without the vector step answers right here, on the task thread.
                pending = checks.run(input.run());
            } catch (RuntimeException e) {
                pending = CompletableFuture.failedFuture(e);
            }
        }
        long issued = System.nanoTime();
        CompletableFuture<LlmResult> answered = pending.handle((result, error) -> {
            runLatencyMs.update((System.nanoTime() - issued) / 1_000_000);
            return error == null ? result : checks.unanswered(input.run());
        });
        cheap.thenAcceptBoth(answered, (checked, r) -> resultFuture.complete(List.of(emit(checked, r))));
    }

    @Override
    public void timeout(CheckedRun input, ResultFuture<RunChecked> resultFuture) {
        resultFuture.complete(List.of(emit(input, checks.unanswered(input.run()))));
    }

    /** @param input the run with every cheap feature and, in tiered mode, the gate's decision */
    private RunChecked emit(CheckedRun input, LlmResult r) {
        calls.inc(r.usage().calls());
        inputTokens.inc(r.usage().inputTokens());
        outputTokens.inc(r.usage().outputTokens());
        if (r.usage().costUsd() != null) {
            costMicroUsd.inc(Math.round(r.usage().costUsd() * 1_000_000));
        }
        if (r.usage().degraded()) {
            degradedRuns.inc();
        }
        LlmUsage usage = input.tier() == null || r.usage().tier() != null ? r.usage() : r.usage().withTier(input.tier());
        return new RunChecked(input.run(),
                FeatureAssembler.assemble(input, r.features(), r.findings(), r.evidenceFlow(), usage));
    }

    @Override
    public void close() {
        if (gate != null) {
            gate.close();
            gate = null;
        }
        if (vectorStep != null) {
            vectorStep.close();
            vectorStep = null;
        }
        if (judge != null) {
            judge.close();
            judge = null;
        }
        if (holdsEmbedder) {
            holdsEmbedder = false;
            SharedEmbedder.release();
        }
    }
}
