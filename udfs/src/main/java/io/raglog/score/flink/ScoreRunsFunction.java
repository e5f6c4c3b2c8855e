package io.raglog.score.flink;

import io.raglog.schemas.Stage;
import io.raglog.schemas.Verdict;
import io.raglog.score.ModelBundle;
import io.raglog.score.Scorer;
import io.raglog.score.ScoringInput;
import java.time.Clock;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.metrics.Counter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The scoring step of the job: a run's features and stage presence → its verdict. The decision itself is
 * {@link Scorer}'s; this function only loads the bundle, counts and warns.
 */
public class ScoreRunsFunction extends RichMapFunction<ScoringInput, Verdict> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(ScoreRunsFunction.class);

    private final BundleLocation bundleLocation;
    private final Clock clock;

    private transient ModelBundle bundle;
    private transient Scorer scorer;
    private transient Set<String> warnedJudges;
    private transient Counter scored;
    private transient Counter flaggedRuns;
    private transient Counter reassigned;
    private transient Counter judgeMismatch;
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
        // (set to nthread=1 on load, since the task thread is the only caller). Scoring then costs well under a ms.
        bundle = bundleLocation.load();
        scorer = new Scorer(bundle);
        warnedJudges = new HashSet<>();
        LOG.info("scoring with model bundle {} from {} (feature list {}, judge {})", bundle.id(), bundleLocation,
                bundle.features().version(), bundle.judge());
        var group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("score");
        scored = group.counter("runs_scored");
        flaggedRuns = group.counter("runs_flagged");
        reassigned = group.counter("runs_reassigned");
        judgeMismatch = group.counter("runs_judge_mismatch");
        flaggedByStage = new EnumMap<>(Stage.class);
        for (Stage stage : Stage.values()) {
            flaggedByStage.put(stage, group.addGroup("stage", stage.id()).counter("flagged"));
        }
    }

    @Override
    public Verdict map(ScoringInput input) {
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
        Verdict verdict = scorer.score(input, clock.instant());
        scored.inc();
        if (verdict.flagged()) {
            flaggedRuns.inc();
            verdict.flaggedStages().forEach(stage -> flaggedByStage.get(stage).inc());
        }
        if (verdict.reassigned()) {
            reassigned.inc();
        }
        return verdict;
    }

    @Override
    public void close() throws Exception {
        if (bundle != null) {
            bundle.close();
        }
        super.close();
    }
}
