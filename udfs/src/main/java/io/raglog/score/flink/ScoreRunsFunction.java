package io.raglog.score.flink;

import io.raglog.flink.JacksonTypeInfo;
import io.raglog.schemas.PipelineThresholds;
import io.raglog.schemas.Stage;
import io.raglog.schemas.Verdict;
import io.raglog.score.ModelBundle;
import io.raglog.score.Scorer;
import io.raglog.score.ScoringInput;
import io.raglog.score.ThresholdChoice;
import java.time.Clock;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.BroadcastState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.co.BroadcastProcessFunction;
import org.apache.flink.util.Collector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scoring step of the job: a run's features and stage presence → its verdict, decided with its pipeline's
 * threshold override when one is in force (broadcast from {@code raglog.thresholds}) and the bundle's thresholds
 * otherwise. The decision itself is {@link Scorer}'s and {@link ThresholdChoice}'s; this function loads the bundle,
 * keeps the overrides in broadcast state (so they survive checkpoints and restores), counts and warns.
 */
public class ScoreRunsFunction extends BroadcastProcessFunction<ScoringInput, PipelineThresholds, Verdict> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ScoreRunsFunction.class);

    /** The override in force per pipeline: the highest version seen for this task's bundle. */
    public static final MapStateDescriptor<String, PipelineThresholds> OVERRIDES = new MapStateDescriptor<>(
            "threshold-overrides", Types.STRING, JacksonTypeInfo.of(PipelineThresholds.class));

    private final BundleLocation bundleLocation;
    private final Clock clock;

    private transient SharedBundles.Lease lease;
    private transient ModelBundle bundle;
    private transient Scorer scorer;
    private transient Set<String> warnedJudges;
    private transient Set<String> warnedBundles;
    private transient Counter scored;
    private transient Counter flaggedRuns;
    private transient Counter reassigned;
    private transient Counter judgeMismatch;
    private transient Counter overridden;
    private transient Counter overridesApplied;
    private transient Counter overridesOtherBundle;
    private transient Counter overridesStale;
    private transient Map<Stage, Counter> flaggedByStage;

    public ScoreRunsFunction(BundleLocation bundleLocation) {
        this(bundleLocation, Clock.systemUTC());
    }

    /** @param clock stamps {@code scored_at}; a fixed clock makes a replay's verdicts byte-identical */
    public ScoreRunsFunction(BundleLocation bundleLocation, Clock clock) {
        this.bundleLocation = bundleLocation;
        this.clock = clock;
    }

    @Override
    public void open(OpenContext openContext) {
        // Once per task, never per record: the bundle is hundreds of trees per stage plus XGBoost native handles
        // (set to nthread=1 on load). The tasks in this JVM share one copy. Scoring then costs well under a ms.
        lease = SharedBundles.acquire(bundleLocation);
        bundle = lease.bundle();
        scorer = new Scorer(bundle);
        warnedJudges = new HashSet<>();
        warnedBundles = new HashSet<>();
        LOG.info("scoring with model bundle {} from {} (feature list {}, judge {})", bundle.id(), bundleLocation,
                bundle.features().version(), bundle.judge());
        var group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("score");
        scored = group.counter("runs_scored");
        flaggedRuns = group.counter("runs_flagged");
        reassigned = group.counter("runs_reassigned");
        judgeMismatch = group.counter("runs_judge_mismatch");
        overridden = group.counter("runs_scored_with_pipeline_thresholds");
        overridesApplied = group.counter("threshold_overrides_applied");
        overridesOtherBundle = group.counter("threshold_overrides_other_bundle");
        overridesStale = group.counter("threshold_overrides_stale");
        flaggedByStage = new EnumMap<>(Stage.class);
        for (Stage stage : Stage.values()) {
            flaggedByStage.put(stage, group.addGroup("stage", stage.id()).counter("flagged"));
        }
    }

    @Override
    public void processElement(ScoringInput input, ReadOnlyContext ctx, Collector<Verdict> out) throws Exception {
        warnOnJudgeMismatch(input);
        PipelineThresholds override = ctx.getBroadcastState(OVERRIDES).get(input.features().pipeline());
        // an override for another bundle is never stored, but state restored into a job with a new bundle holds the
        // old bundle's: they stay until that pipeline's next override, and its runs use the bundle's thresholds
        boolean applies = override != null && ThresholdChoice.fits(bundle, override);
        if (override != null && !applies) {
            warnOtherBundle(override);
        }
        Verdict verdict = applies ? scorer.score(input, clock.instant(), ThresholdChoice.of(bundle, override))
                : scorer.score(input, clock.instant());
        scored.inc();
        if (applies) {
            overridden.inc();
        }
        if (verdict.flagged()) {
            flaggedRuns.inc();
            verdict.flaggedStages().forEach(stage -> flaggedByStage.get(stage).inc());
        }
        if (verdict.reassigned()) {
            reassigned.inc();
        }
        out.collect(verdict);
    }

    /**
     * Every task sees every override (broadcast) and keeps the same state: the highest version per pipeline computed
     * for this task's bundle. A lower or equal version (a replayed or reordered record) changes nothing.
     */
    @Override
    public void processBroadcastElement(PipelineThresholds override, Context ctx, Collector<Verdict> out)
            throws Exception {
        boolean firstTask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() == 0; // log once per job
        if (!ThresholdChoice.fits(bundle, override)) {
            overridesOtherBundle.inc();
            if (firstTask) {
                warnOtherBundle(override);
            }
            return;
        }
        BroadcastState<String, PipelineThresholds> overrides = ctx.getBroadcastState(OVERRIDES);
        PipelineThresholds current = overrides.get(override.pipeline());
        if (current != null && current.version() >= override.version()) {
            overridesStale.inc();
            return;
        }
        overrides.put(override.pipeline(), override);
        overridesApplied.inc();
        if (firstTask) {
            LOG.info("pipeline {}: thresholds {} ({} of {} runs, FPR <= {}) now decide {}; the bundle's the rest",
                    override.pipeline(), override.label(), override.basis().source(), override.basis().reviewedRuns(),
                    override.basis().maxFpr(), override.thresholds());
        }
    }

    private void warnOnJudgeMismatch(ScoringInput input) {
        String judge = input.features().llm() == null ? null : input.features().llm().judge();
        if (judge != null && !judge.equals(bundle.judge())) {
            judgeMismatch.inc();
            if (warnedJudges.add(judge)) {
                // Loud and once per judge: the models learned the bundle judge's confidence scale; another judge's
                // numbers shift the probabilities, so flags may be off until a bundle is trained on this judge.
                LOG.warn("JUDGE MISMATCH: features of run {} come from judge '{}' but model bundle {} was trained "
                        + "on features from judge '{}'; its thresholds may not hold. Train a bundle with this judge "
                        + "(raglog train --judge ...).", input.features().runId(), judge, bundle.id(), bundle.judge());
            }
        }
    }

    /** Once per bundle id the overrides name: the thresholds are on another bundle's scale and are not used. */
    private void warnOtherBundle(PipelineThresholds override) {
        if (warnedBundles.add(override.modelBundle())) {
            LOG.warn("thresholds {} were computed for model bundle {}, but this job scores with {}: ignored, the "
                    + "bundle's thresholds decide. Suggest them again for this bundle (raglog thresholds --pipeline "
                    + "{} --bundle ... --publish ...).", override.label(), override.modelBundle(), bundle.id(),
                    override.pipeline());
        }
    }

    /**
     * No overrides, for a topology without the thresholds topic (a replay of files): an input that never emits, made
     * from {@code alongside} so it keeps that stream's event time and ends when it ends. (An empty collection source
     * is no way out: Flink 2.2's fails on its first read.)
     */
    public static <T> SingleOutputStreamOperator<PipelineThresholds> noOverrides(DataStream<T> alongside) {
        return alongside.flatMap(new NoOverrides<T>(), JacksonTypeInfo.of(PipelineThresholds.class));
    }

    private static final class NoOverrides<T> implements FlatMapFunction<T, PipelineThresholds> {
        private static final long serialVersionUID = 1L;

        @Override
        public void flatMap(T value, Collector<PipelineThresholds> out) {}
    }

    @Override
    public void close() throws Exception {
        if (lease != null) {
            lease.close();
        }
        super.close();
    }
}
