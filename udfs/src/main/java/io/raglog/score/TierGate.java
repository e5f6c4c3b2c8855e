package io.raglog.score;

import io.raglog.checks.FeatureList;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageVerdict.ModelProbabilities;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Tiered mode's gate: per stage, a cheap-only ensemble (the same three models as the stage's own, fitted on the rule
 * and vector features alone, i.e. what the cheap checks know before any LLM call) and two bounds on its probability.
 * A run is decided without the LLM when every present stage is clearly healthy (below its {@code healthyBelow}), or
 * exactly one is clearly faulty (at or above its {@code faultyFrom}) and the others clearly healthy. The gate's
 * models then also give that run's verdict: the bounds were chosen on exactly that decision (see
 * {@code io.raglog.training.TierGateSearch}), so the F1 the search validated is the F1 the job gets. The bounds are
 * per stage: the search places them at two log-odds distances, shared by every stage, from each stage's default
 * threshold, so that they follow each stage's operating point (a reranker flagged from 0.43, a rewrite from 0.25) instead of one
 * probability for all.
 *
 * <p>Why cheap-only models rather than the stage models with the LLM features missing: the gate needs cheap-only
 * probabilities anyway, the stage models stay the ones default mode runs (trained as before, figures unchanged), and
 * a skipped run is judged by a model that never expected LLM features.
 *
 * <p>Holds XGBoost native handles; the bundle that owns it closes it.
 */
public final class TierGate implements AutoCloseable {

    /** Version of the gate's rule and layout in a bundle. */
    public static final String VERSION = "raglog.tier-gate/v1";

    /** A bound no ensemble probability reaches: with it a stage is never "clearly faulty" (see ThresholdSearch). */
    public static final double NEVER_FAULTY = 1.0;
    /** A bound no probability is below: with it a stage is never "clearly healthy". */
    public static final double NEVER_HEALTHY = 0.0;

    /**
     * One stage's bounds on its cheap-only probability.
     *
     * @param healthyBelow below it the stage is clearly healthy
     * @param faultyFrom at or above it the stage is clearly faulty (the threshold of a skipped run's verdict)
     */
    public record Bounds(double healthyBelow, double faultyFrom) {

        public Bounds {
            if (!(healthyBelow >= 0 && healthyBelow <= faultyFrom && faultyFrom <= 1)) {
                throw new IllegalArgumentException("tier gate bounds need 0 <= healthy_below <= faulty_from <= 1, got "
                        + healthyBelow + " and " + faultyFrom);
            }
        }

        static Bounds never() {
            return new Bounds(NEVER_HEALTHY, NEVER_FAULTY);
        }
    }

    /**
     * The gate's decision on one run.
     *
     * @param skip true: the cheap checks decide the run, the LLM is not asked
     * @param flagged when skipped, the one clearly faulty stage (or none); empty when checked
     */
    public record Decision(boolean skip, Map<Stage, Double> probability, Set<Stage> flagged) {

        public String tier() {
            return skip ? LlmUsage.TIER_SKIPPED : LlmUsage.TIER_CHECKED;
        }
    }

    private final FeatureSpace features;
    private final Map<Stage, StageModel> models;
    private final Map<Stage, Bounds> bounds;

    public TierGate(FeatureSpace features, Map<Stage, ? extends StageModel> models, Map<Stage, Bounds> bounds) {
        for (Stage stage : Stage.values()) {
            if (models.get(stage) == null && bounds.get(stage) == null && ModelBundle.mayLack(stage)) {
                continue;
            }
            if (models.get(stage) == null || bounds.get(stage) == null) {
                throw new IllegalArgumentException("a tier gate needs a model and bounds for every stage; "
                        + stage.id() + " has none");
            }
        }
        this.features = features;
        this.models = new EnumMap<>(models);
        this.bounds = Collections.unmodifiableMap(new EnumMap<>(bounds));
    }

    /** The cheap features of a feature list: every rule and vector feature of it, in its order. */
    public static FeatureSpace cheapFeatures(FeatureSpace all) {
        List<String> cheap = new ArrayList<>();
        for (String name : all.names()) {
            if (FeatureList.contains(name) && FeatureList.get(name).kind() != FeatureList.Kind.LLM) {
                cheap.add(name);
            }
        }
        return new FeatureSpace(all.version(), cheap);
    }

    public FeatureSpace features() {
        return features;
    }

    public Map<Stage, Bounds> bounds() {
        return bounds;
    }

    StageModel model(Stage stage) {
        return models.get(stage);
    }

    /** Whether the gate has a model for the stage (one trained before a stage existed does not). */
    public boolean scores(Stage stage) {
        return models.containsKey(stage);
    }

    /** The cheap-only models' probabilities for every present stage (LLM features, if any, are not read). */
    public Map<Stage, ModelProbabilities> probabilities(ScoringInput input) {
        double[] raw = features.row(input.features());
        Map<Stage, ModelProbabilities> out = new EnumMap<>(Stage.class);
        for (Stage stage : input.present()) {
            if (scores(stage)) {
                out.put(stage, models.get(stage).predict(raw));
            }
        }
        return out;
    }

    /** The decision on a run's cheap features by name (what the cheap checks produce) and its present stages. */
    public Decision decide(Map<String, Double> cheapFeatures, Set<Stage> present) {
        double[] raw = features.row(cheapFeatures);
        Map<Stage, Double> p = new EnumMap<>(Stage.class);
        Set<Stage> scored = EnumSet.noneOf(Stage.class);
        for (Stage stage : present) {
            if (scores(stage)) {
                p.put(stage, Ensemble.combine(models.get(stage).predict(raw)));
                scored.add(stage);
            }
        }
        return decide(p, scored, bounds);
    }

    public Decision decide(ScoringInput input) {
        Map<Stage, Double> p = new EnumMap<>(Stage.class);
        probabilities(input).forEach((stage, parts) -> p.put(stage, Ensemble.combine(parts)));
        return decide(p, p.keySet(), bounds);
    }

    /**
     * The rule alone: skip when every present stage is clearly healthy, or exactly one is clearly faulty and the rest
     * clearly healthy. A run with no present stage is never skipped (there is nothing the cheap checks looked at).
     */
    static Decision decide(Map<Stage, Double> probability, Set<Stage> present, Map<Stage, Bounds> bounds) {
        double[] p = new double[STAGES.length];
        double[] healthyBelow = new double[STAGES.length];
        double[] faultyFrom = new double[STAGES.length];
        int presentMask = 0;
        for (Stage stage : STAGES) {
            Bounds b = bounds.get(stage);
            if (b == null) {
                continue; // a stage the gate has no model for is not present to it
            }
            healthyBelow[stage.ordinal()] = b.healthyBelow();
            faultyFrom[stage.ordinal()] = b.faultyFrom();
            if (present.contains(stage)) {
                presentMask |= 1 << stage.ordinal();
                p[stage.ordinal()] = probability.get(stage);
            }
        }
        int flagged = flaggedIfSkipped(p, presentMask, healthyBelow, faultyFrom);
        Set<Stage> out = EnumSet.noneOf(Stage.class);
        for (Stage stage : STAGES) {
            if (flagged > 0 && (flagged & (1 << stage.ordinal())) != 0) {
                out.add(stage);
            }
        }
        return new Decision(flagged != CHECK, probability, out);
    }

    /** {@link #flaggedIfSkipped}'s answer for a run the LLM must check. */
    public static final int CHECK = -1;

    private static final Stage[] STAGES = Stage.values();

    /**
     * The rule on arrays indexed by stage ordinal, shared with the bound search (which runs it millions of times):
     * {@link #CHECK} when the LLM must check the run, else the bit mask of the stages it flags (0: none).
     */
    public static int flaggedIfSkipped(double[] p, int presentMask, double[] healthyBelow, double[] faultyFrom) {
        if (presentMask == 0) {
            return CHECK;
        }
        int faulty = 0;
        for (int s = 0; s < p.length; s++) {
            if ((presentMask & (1 << s)) == 0) {
                continue;
            }
            if (p[s] >= faultyFrom[s]) {
                if (faulty != 0) {
                    return CHECK; // two stages look faulty: which one is the LLM checks' question
                }
                faulty = 1 << s;
            } else if (!(p[s] < healthyBelow[s])) {
                return CHECK; // in between: the cheap checks are not sure, the LLM decides
            }
        }
        return faulty;
    }

    @Override
    public void close() {
        models.values().forEach(StageModel::close);
    }
}
