package io.raglog.checkstage;

import io.raglog.checks.CheckedRun;
import io.raglog.checks.FeatureList;
import io.raglog.checks.RunChecked;
import io.raglog.flink.JacksonTypeInfo;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunFeatures;
import io.raglog.score.flink.BundleLocation;
import java.io.Serializable;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.async.AsyncRetryStrategy;
import org.apache.flink.streaming.util.retryable.AsyncRetryStrategies;

/**
 * The checks building block: Run → rule checks → vector checks and LLM checks side by side (async, unordered, bounded
 * capacity, timeout, retry) → RunFeatures. The async operator's bounded queue is what turns a slow endpoint (or a busy
 * model) into back-pressure on the source instead of an unbounded buffer.
 *
 * <p>The vector checks run in the async operator, on the subtask's embedding thread, while the run's LLM calls are out:
 * the task thread (assembly's timers, the rules, scoring, the sinks) never waits on the model, and a run costs about
 * the longer of its embedding and its calls. In tiered mode, with a model bundle to read the tier gate from, the gate
 * runs there too, between a run's vectors and its calls: it marks the runs the cheap checks already decide, and those
 * make no call. The operators and their uids are the same in every mode. (Earlier builds ran the vectors with the rules
 * and the gate as an operator of its own, {@code checks-tier-gate}; it held no state, so their savepoints restore.)
 */
public final class ChecksStage {

    public static final String CHEAP_UID = "checks-cheap";
    public static final String LLM_UID = "checks-llm";

    private ChecksStage() {}

    /** The feature vectors alone, for {@code replay --features-out}. */
    public static DataStream<RunFeatures> apply(DataStream<Run> runs, ChecksSettings settings) {
        return checked(runs, settings)
                .map(RunChecked::features, JacksonTypeInfo.of(RunFeatures.class))
                .uid("checks-features").name("feature vectors");
    }

    /** Each run with its feature vector: what scoring reads. Every run gets the LLM checks (no tier gate). */
    public static DataStream<RunChecked> checked(DataStream<Run> runs, ChecksSettings settings) {
        return checked(runs, settings, null);
    }

    /**
     * Each run with its feature vector: what scoring reads.
     *
     * @param gateBundle the bundle whose tier gate tiered mode uses; null (or a mode other than tiered): no gate
     */
    public static DataStream<RunChecked> checked(DataStream<Run> runs, ChecksSettings settings,
            BundleLocation gateBundle) {
        // the vectors run beside the LLM calls, in the async operator, off the task thread; in tiered mode the gate
        // runs there too, between a run's vectors and its calls
        boolean gated = settings.llm().tiered() && gateBundle != null;
        SingleOutputStreamOperator<CheckedRun> rules = runs
                .map(new RuleChecksFunction(), JacksonTypeInfo.of(CheckedRun.class))
                .uid(CHEAP_UID)
                .name("checks: rules");
        long timeoutMs = settings.llm().runTimeout().toMillis();
        String what = (settings.vectorChecks() ? "vectors + " : "") + (gated ? "tier gate + " : "") + "LLM";
        return AsyncDataStream.unorderedWaitWithRetry(rules,
                        new LlmChecksFunction(settings, gated ? gateBundle : null), timeoutMs,
                        TimeUnit.MILLISECONDS, settings.llm().capacity(), retryStrategy(settings))
                .returns(JacksonTypeInfo.of(RunChecked.class))
                .uid(LLM_UID)
                .name("checks: " + what + " (" + settings.llm().judgeId() + ")");
    }

    /**
     * Check-level retries live in the judge; this retries a whole run, later, only when every one of its checks failed
     * (the endpoint was down for it), which costs nothing already answered. Flink stops retrying once the input has
     * ended, so in a bounded replay the last runs in flight get their check-level retries only.
     */
    static AsyncRetryStrategy<RunChecked> retryStrategy(ChecksSettings settings) {
        if (settings.llm().runRetries() == 0) {
            @SuppressWarnings("unchecked")
            AsyncRetryStrategy<RunChecked> none = AsyncRetryStrategies.NO_RETRY_STRATEGY;
            return none;
        }
        long initial = Math.max(1, settings.llm().backoff().toMillis());
        long max = Math.max(initial, settings.llm().maxBackoff().toMillis());
        return new AsyncRetryStrategies.ExponentialBackoffDelayRetryStrategyBuilder<RunChecked>(
                settings.llm().runRetries(), initial, max, 2.0)
                .ifResult(new EveryCheckFailed())
                .build();
    }

    /** True when a run's LLM checks were asked and none answered. */
    static final class EveryCheckFailed implements Predicate<Collection<RunChecked>>, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public boolean test(Collection<RunChecked> results) {
            return results.stream().map(RunChecked::features).anyMatch(EveryCheckFailed::everyCheckFailed);
        }

        static boolean everyCheckFailed(RunFeatures f) {
            if (f.llm() == null || !f.llm().degraded()) {
                return false;
            }
            return FeatureList.all().stream()
                    .filter(def -> def.kind() == FeatureList.Kind.LLM)
                    .allMatch(def -> f.feature(def.name()) == null);
        }
    }
}
