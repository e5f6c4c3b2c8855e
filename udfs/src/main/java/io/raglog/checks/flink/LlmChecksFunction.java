package io.raglog.checks.flink;

import io.raglog.checks.CheckedRun;
import io.raglog.checks.RunChecked;
import io.raglog.checks.ChecksSettings;
import io.raglog.checks.FeatureAssembler;
import io.raglog.checks.SharedEmbedder;
import io.raglog.llm.Judges;
import io.raglog.llm.Judge;
import io.raglog.llm.LlmChecks;
import io.raglog.llm.LlmResult;
import io.raglog.llm.ProviderKind;
import io.raglog.schemas.RunFeatures;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.streaming.api.functions.async.RichAsyncFunction;

/**
 * The LLM checks of a run, asynchronously: the judge's five calls go out together and the run's features are
 * assembled when they are all back. Always completes with a result: unanswered checks and the operator's timeout give
 * missing features and {@code degraded: true}, never a lost run and never a failed job.
 */
public final class LlmChecksFunction extends RichAsyncFunction<CheckedRun, RunChecked> {

    private static final long serialVersionUID = 1L;

    private final ChecksSettings settings;
    private transient Judge judge;
    private transient LlmChecks checks;
    private transient boolean holdsEmbedder;
    private transient Counter degradedRuns;
    private transient Counter calls;

    public LlmChecksFunction(ChecksSettings settings) {
        this.settings = settings;
    }

    @Override
    public void open(OpenContext openContext) {
        holdsEmbedder = settings.llm().provider() == ProviderKind.OFFLINE;
        // The HTTP client (or, offline, the shared embedding model) is built once per task, here.
        judge = Judges.create(settings.llm(),
                holdsEmbedder ? SharedEmbedder.acquire(settings.embeddingCacheEntries()) : null);
        checks = new LlmChecks(judge, settings.llm().economy());
        MetricGroup group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("checks");
        degradedRuns = group.counter("degraded_runs", new ThreadSafeSimpleCounter());
        calls = group.counter("llm_calls", new ThreadSafeSimpleCounter());
    }

    @Override
    public void asyncInvoke(CheckedRun input, ResultFuture<RunChecked> resultFuture) {
        CompletableFuture<LlmResult> pending;
        try {
            // The offline judge answers right here, on the task thread: CPU work on vectors mostly cached by the
            // cheap checks. A remote judge only schedules its calls.
            pending = checks.run(input.run());
        } catch (RuntimeException e) {
            pending = CompletableFuture.failedFuture(e);
        }
        pending.whenComplete((result, error) -> {
            LlmResult r = error == null ? result : checks.unanswered(input.run());
            resultFuture.complete(List.of(emit(input, r)));
        });
    }

    @Override
    public void timeout(CheckedRun input, ResultFuture<RunChecked> resultFuture) {
        resultFuture.complete(List.of(emit(input, checks.unanswered(input.run()))));
    }

    private RunChecked emit(CheckedRun input, LlmResult r) {
        calls.inc(r.usage().calls());
        if (r.usage().degraded()) {
            degradedRuns.inc();
        }
        return new RunChecked(input.run(),
                FeatureAssembler.assemble(input, r.features(), r.findings(), r.evidenceFlow(), r.usage()));
    }

    @Override
    public void close() {
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
