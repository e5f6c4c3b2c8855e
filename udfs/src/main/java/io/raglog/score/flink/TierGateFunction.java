package io.raglog.score.flink;

import io.raglog.checks.CheckedRun;
import io.raglog.checks.FeatureList;
import io.raglog.schemas.LlmUsage;
import io.raglog.score.ModelBundle;
import io.raglog.score.ScoringInput;
import io.raglog.score.TierGate;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.metrics.Counter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tiered mode, between the cheap checks and the LLM operator: marks each run {@code skipped} (the bundle's tier gate
 * decides it from the cheap checks; the LLM operator lets it through without a call) or {@code checked}. The decision
 * is {@link TierGate}'s; this function only loads the bundle, counts and says why it stands aside. It stands aside
 * (every run goes to the LLM, unmarked) when the bundle has no gate, when the gate was trained on another feature
 * list, or when the vector checks are off (the gate was trained with their features).
 */
public final class TierGateFunction extends RichMapFunction<CheckedRun, CheckedRun> {

    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(TierGateFunction.class);

    private final BundleLocation bundleLocation;
    private final boolean vectorChecks;

    private transient ModelBundle bundle;
    private transient TierGate gate;
    private transient Counter skipped;
    private transient Counter checked;

    /** @param vectorChecks whether the cheap checks compute the vector features the gate reads */
    public TierGateFunction(BundleLocation bundleLocation, boolean vectorChecks) {
        this.bundleLocation = bundleLocation;
        this.vectorChecks = vectorChecks;
    }

    @Override
    public void open(OpenContext openContext) {
        // Once per task, like the scoring step: the gate's trees and XGBoost handles load here, never per record.
        bundle = bundleLocation.load();
        gate = bundle.tierGate().orElse(null);
        if (gate == null) {
            LOG.warn("tiered mode, but model bundle {} has no tier gate: every run gets the LLM checks", bundle.id());
        } else if (!FeatureList.VERSION.equals(gate.features().version())) {
            LOG.warn("tiered mode, but the tier gate of bundle {} reads feature list {} and the checks write {}: "
                    + "every run gets the LLM checks", bundle.id(), gate.features().version(), FeatureList.VERSION);
            gate = null;
        } else if (!vectorChecks) {
            LOG.warn("tiered mode with the vector checks off: the tier gate of bundle {} needs their features, so "
                    + "every run gets the LLM checks", bundle.id());
            gate = null;
        } else {
            LOG.info("tiered mode: tier gate of bundle {} decides which runs skip the LLM checks", bundle.id());
        }
        var group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("tier");
        skipped = group.counter("runs_skipped");
        checked = group.counter("runs_checked");
    }

    @Override
    public CheckedRun map(CheckedRun run) {
        if (gate == null) {
            return run;
        }
        // a run whose cheap checks failed has nothing for the gate to read: the LLM checks it
        boolean skip = !run.features().isEmpty()
                && gate.decide(run.features(), ScoringInput.of(run.run(), null).present()).skip();
        (skip ? skipped : checked).inc();
        return run.withTier(skip ? LlmUsage.TIER_SKIPPED : LlmUsage.TIER_CHECKED);
    }

    @Override
    public void close() throws Exception {
        if (bundle != null) {
            bundle.close();
        }
        super.close();
    }
}
