package io.raglog.score;

import io.raglog.checks.FeatureList;
import io.raglog.schemas.EmbeddingMismatch;
import io.raglog.schemas.KnowledgeGap;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageVerdict;
import io.raglog.schemas.StageVerdict.ModelProbabilities;
import io.raglog.schemas.Verdict;
import io.raglog.schemas.VerdictStages;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Features and presence of one run → its verdict. Per present stage: the three models' probabilities, their
 * weighted mean, the stage's threshold; then the reassignment rule; then evidence and a repair hint for every
 * flagged stage. A stage the run did not have is not scored. A run the tier gate skipped (tiered mode: no LLM features)
 * is decided by the bundle's tier gate instead: its cheap-only models' probabilities against the gate's "clearly
 * faulty" bounds, then the context-assembly rule, which needs no judge ({@link #decideSkipped}): exactly the decision
 * the gate's bounds were validated on. Not thread-safe only in the sense that the bundle's XGBoost models are tuned
 * for one caller at a time (one scorer per Flink task).
 */
public final class Scorer {

    /** Written when the features carry no usage at all, so a verdict always has its {@code llm} object. */
    private static final LlmUsage NO_USAGE = new LlmUsage(0, 0, 0, null, false, List.of(), "none");

    private final ModelBundle bundle;
    private final ThresholdChoice bundleThresholds;
    /** Each scoring thread's raw row, rewritten by every {@link #probabilities}: one array less per run. */
    private final ThreadLocal<double[]> rawRow;

    public Scorer(ModelBundle bundle) {
        this.bundle = bundle;
        this.bundleThresholds = ThresholdChoice.bundle(bundle);
        this.rawRow = ThreadLocal.withInitial(() -> new double[bundle.features().size()]);
    }

    public ModelBundle bundle() {
        return bundle;
    }

    /** The three models' probabilities for every present stage. */
    public Map<Stage, ModelProbabilities> probabilities(ScoringInput input) {
        double[] raw = bundle.features().row(input.features(), rawRow.get());
        Map<Stage, ModelProbabilities> out = new EnumMap<>(Stage.class);
        for (Stage stage : bundle.scored(input.present())) {
            out.put(stage, bundle.model(stage).predict(raw));
        }
        return out;
    }

    /** The run decided with the bundle's own thresholds. */
    public Verdict score(ScoringInput input, Instant scoredAt) {
        return score(input, scoredAt, bundleThresholds);
    }

    /**
     * The run decided with {@code chosen} (e.g. its pipeline's override). A run the tier gate skipped is still decided
     * by the gate's bounds: the override's thresholds are for the full ensemble's probabilities, not the gate's.
     */
    public Verdict score(ScoringInput input, Instant scoredAt, ThresholdChoice chosen) {
        RunFeatures features = input.features();
        boolean skipped = features.llm() != null && features.llm().tierSkipped() && bundle.tierGate().isPresent();
        Map<Stage, ModelProbabilities> parts = skipped ? bundle.tierGate().get().probabilities(input)
                : probabilities(input);
        Map<Stage, Double> probability = new EnumMap<>(Stage.class);
        parts.forEach((stage, p) -> probability.put(stage, Ensemble.combine(p)));
        Map<Stage, Double> thresholds = skipped ? gateThresholds() : chosen.thresholds();
        // the present stages the models scored: a bundle (or gate) trained before a stage existed leaves it unscored
        Set<Stage> scored = parts.isEmpty() ? EnumSet.noneOf(Stage.class) : EnumSet.copyOf(parts.keySet());
        Decision decision = skipped ? decideSkipped(probability, thresholds, scored, features)
                : decide(probability, thresholds, scored, features);
        EmbeddingMismatch mismatch = input.has(Stage.EMBED) ? input.embeddingMismatch() : null;

        Set<Stage> flaggedOrMismatched = EnumSet.noneOf(Stage.class);
        flaggedOrMismatched.addAll(decision.flagged());
        if (mismatch != null) {
            flaggedOrMismatched.add(Stage.EMBED);
        }
        Map<Stage, StageVerdict> stages = new EnumMap<>(Stage.class);
        List<Stage> flaggedStages = new ArrayList<>();
        for (Stage stage : Stage.values()) {
            if (!scored.contains(stage)) {
                stages.put(stage, StageVerdict.absent());
                continue;
            }
            double p = probability.get(stage);
            double t = thresholds.get(stage);
            boolean flagged = decision.flagged().contains(stage);
            List<String> evidence = List.of();
            String hint = null;
            if (stage == Stage.EMBED && mismatch != null) {
                // the index and its queries use different embedding models: no model's probability can say that
                flagged = true;
                flaggedStages.add(stage);
                evidence = RepairHints.withMismatch(mismatch, decision.flagged().contains(stage)
                        ? Evidence.forStage(stage, features, p, t) : List.of());
                hint = mismatch.repairHint();
            } else if (flagged) {
                flaggedStages.add(stage);
                evidence = Evidence.forStage(stage, features, p, t);
                hint = RepairHints.forStage(stage, features, decision.fired(), scored, flaggedOrMismatched);
            } else if (decision.clearedForAssembly().contains(stage)) {
                evidence = List.of("cleared: the passage holding the answer was handed on to the prompt, and context "
                        + "assembly cut or dropped it");
            } else if (stage == Stage.RETRIEVE && decision.fired()) {
                evidence = List.of(Evidence.clearedByReassignment(features));
            }
            stages.put(stage, new StageVerdict(true, p, t, flagged, evidence, hint, parts.get(stage)));
        }
        return new Verdict(Verdict.SCHEMA_V4, features.runId(), features.pipeline(), features.question(),
                input.answer(),
                new VerdictStages(stages.get(Stage.REWRITE), stages.get(Stage.EMBED), stages.get(Stage.RETRIEVE),
                        stages.get(Stage.RERANK), stages.get(Stage.ASSEMBLE), stages.get(Stage.GENERATE)),
                List.copyOf(flaggedStages), decision.fired(), decision.gap(),
                features.llm() == null ? NO_USAGE : features.llm(),
                bundle.id(), scoredAt, input.trace(), skipped ? bundleThresholds.used() : chosen.used());
    }

    /**
     * The stages a run is flagged with when the tier gate skips it ({@code gate.skip()}): what {@link #score} decides
     * for a run that arrives skipped, for evaluations that replay tiered mode from default mode's runs.
     */
    public Set<Stage> flaggedIfSkipped(ScoringInput input, TierGate.Decision gate) {
        return decideSkipped(gate.probability(), gateThresholds(), gate.probability().keySet(), input.features())
                .flagged();
    }

    /** A skipped run's thresholds: the gate's "clearly faulty" bounds. */
    private Map<Stage, Double> gateThresholds() {
        Map<Stage, Double> out = new EnumMap<>(Stage.class);
        bundle.tierGate().get().bounds().forEach((stage, b) -> out.put(stage, b.faultyFrom()));
        return out;
    }

    /**
     * The run's decision: the stages flagged, whether the reassignment rule fired, and the knowledge-gap decision.
     */
    public record Decision(Set<Stage> flagged, boolean fired, KnowledgeGap gap, Set<Stage> clearedForAssembly) {

        public Decision(Set<Stage> flagged, boolean fired, KnowledgeGap gap) {
            this(flagged, fired, gap, Set.of());
        }
    }

    /**
     * A run the tier gate skipped, decided by the gate's probabilities against its "clearly faulty" bounds. It has no
     * evidence flow and no judge's checks, so neither the reassignment rule nor the knowledge-gap rule can fire on it;
     * the context-assembly rule reads only the rule checks and assembly's probability, so it does, as in default mode,
     * and so do the answer-kind and sure-signs rules. Without it a bundle whose assembly flags come from the rule
     * alone (its model's threshold never reached) could skip no run that assembly might have lost an answer in, and the
     * gate's search found almost none to skip.
     */
    public static Decision decideSkipped(Map<Stage, Double> probability, Map<Stage, Double> bounds, Set<Stage> present,
            RunFeatures features) {
        Decision byBounds = decide(probability, bounds, present, null);
        if (features == null) {
            return byBounds;
        }
        ContextAssemblyRule.Outcome assembly = ContextAssemblyRule.apply(byBounds.flagged(), present, features,
                probability.getOrDefault(Stage.ASSEMBLE, 0.0));
        Set<Stage> ruled = AnswerKindRule.apply(assembly.flagged(), present, features,
                probability.getOrDefault(Stage.GENERATE, 0.0));
        return new Decision(SureSignsRule.apply(ruled, present, features), false, KnowledgeGap.undecided(),
                assembly.cleared());
    }

    /**
     * The decision alone, shared with threshold selection so thresholds are tuned on exactly what the job does: a
     * present stage is flagged when its probability reaches its threshold, then the reassignment rule applies, then
     * the context-assembly rule, then the answer-kind rule, then the sure-signs rule; the knowledge-gap rule
     * then decides a gap beside those flags.
     *
     * @param features the run's features, null when the rules cannot apply (a tier-skipped run)
     */
    public static Decision decide(Map<Stage, Double> probability, Map<Stage, Double> thresholds, Set<Stage> present,
            RunFeatures features) {
        Set<Stage> flagged = EnumSet.noneOf(Stage.class);
        for (Map.Entry<Stage, Double> e : probability.entrySet()) {
            Double threshold = thresholds.get(e.getKey()); // none: a stage the bundle does not score
            if (present.contains(e.getKey()) && threshold != null && e.getValue() >= threshold) {
                flagged.add(e.getKey());
            }
        }
        if (features == null) {
            return new Decision(flagged, false, KnowledgeGap.undecided());
        }
        ReassignmentRule.Outcome reassigned = ReassignmentRule.apply(flagged, present, features.evidenceFlow(),
                features.feature(FeatureList.ASSEMBLE_FLOW_LOST));
        ContextAssemblyRule.Outcome assembly = ContextAssemblyRule.apply(reassigned.flagged(), present, features,
                probability.getOrDefault(Stage.ASSEMBLE, 0.0));
        Set<Stage> ruled = SureSignsRule.apply(AnswerKindRule.apply(assembly.flagged(), present, features,
                probability.getOrDefault(Stage.GENERATE, 0.0)), present, features);
        KnowledgeGap gap = KnowledgeGapRule.decide(ruled, features);
        return new Decision(ruled, reassigned.fired(), gap, assembly.cleared());
    }
}
