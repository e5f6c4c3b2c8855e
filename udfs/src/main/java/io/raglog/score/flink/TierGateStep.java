package io.raglog.score.flink;

import io.raglog.checks.CheckedRun;
import io.raglog.checks.FeatureList;
import io.raglog.schemas.LlmUsage;
import io.raglog.score.ModelBundle;
import io.raglog.score.ScoringInput;
import io.raglog.score.TierGate;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tiered mode, inside the async checks operator, once a run's vector checks are done: marks the run {@code skipped}
 * (the bundle's tier gate decides it from the cheap checks, and no LLM call is made) or {@code checked}. The decision
 * is {@link TierGate}'s; this only loads the bundle, counts and says why it stands aside. It stands aside (every run
 * goes to the LLM, unmarked) when the bundle has no gate, when the gate was trained on another feature list, or when
 * the vector checks are off (the gate was trained with their features). One per subtask, used from one thread at a
 * time (the subtask's embedding thread).
 */
public final class TierGateStep implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TierGateStep.class);

    private final SharedBundles.Lease lease;
    private final TierGate gate;
    private final Counter skipped;
    private final Counter checked;

    private TierGateStep(SharedBundles.Lease lease, TierGate gate, Counter skipped, Counter checked) {
        this.lease = lease;
        this.gate = gate;
        this.skipped = skipped;
        this.checked = checked;
    }

    /**
     * Once per task, like the scoring step: the gate's trees and XGBoost handles load here, never per record, in the
     * copy of the bundle the scoring tasks of this JVM share.
     *
     * @param vectorChecks whether the checks compute the vector features the gate reads
     * @param metrics where the {@code raglog.tier.runs_skipped} / {@code runs_checked} counters go
     */
    public static TierGateStep open(BundleLocation location, boolean vectorChecks, MetricGroup metrics) {
        SharedBundles.Lease lease = SharedBundles.acquire(location);
        ModelBundle bundle = lease.bundle();
        TierGate gate = bundle.tierGate().orElse(null);
        if (gate == null) {
            LOG.warn("tiered mode, but model bundle {} has no tier gate: every run gets the LLM checks", bundle.id());
        } else if (!FeatureList.extendsList(FeatureList.VERSION, gate.features().version())) {
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
        MetricGroup group = metrics.addGroup("raglog").addGroup("tier");
        return new TierGateStep(lease, gate, group.counter("runs_skipped", new ThreadSafeSimpleCounter()),
                group.counter("runs_checked", new ThreadSafeSimpleCounter()));
    }

    /** Whether runs are gated at all (false: it stands aside, see the class comment). */
    public boolean active() {
        return gate != null;
    }

    /** The run marked with the gate's decision; unmarked when the gate stands aside. */
    public CheckedRun mark(CheckedRun run) {
        if (gate == null) {
            return run;
        }
        boolean skip;
        try {
            // a run whose cheap checks failed has nothing for the gate to read: the LLM checks it
            skip = !run.features().isEmpty()
                    && gate.decide(run.features(), ScoringInput.of(run.run(), null).present()).skip();
        } catch (RuntimeException e) {
            LOG.warn("the tier gate failed on run {}; the LLM checks it", run.run().runId(), e);
            skip = false;
        }
        (skip ? skipped : checked).inc();
        return run.withTier(skip ? LlmUsage.TIER_SKIPPED : LlmUsage.TIER_CHECKED);
    }

    @Override
    public void close() {
        lease.close();
    }
}
