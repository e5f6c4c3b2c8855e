package io.raglog.training;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.raglog.schemas.Stage;
import io.raglog.score.StageMasks;
import io.raglog.score.TierGate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * How the tier gate's bounds are chosen, on runs whose stage-model and cheap-only probabilities are set by hand
 * (labels, present stages and LLM calls from {@link SyntheticRuns}).
 */
class TierGateSearchTest {

    private static final Map<Stage, Double> THRESHOLDS = new EnumMap<>(Map.of(Stage.REWRITE, 0.25, Stage.EMBED, 0.7,
            Stage.RETRIEVE, 0.55, Stage.RERANK, 0.43, Stage.GENERATE, 0.65));
    /**
     * Where the cheap models put a third of the reranker's faults, and as many sound rerankers: flagging there adds
     * false positives, calling it healthy drops true ones, so only checking such runs is free of harm.
     */
    private static final double FAINT_RERANK = 0.40;

    @Test
    void shouldChargeTheGateForWhatItDropsOrAddsAndCreditItForNothing() {
        int rerank = 1 << Stage.RERANK.ordinal();
        int generate = 1 << Stage.GENERATE.ordinal();
        int retrieve = 1 << Stage.RETRIEVE.ordinal();
        int scored = rerank | generate | retrieve;
        int faulty = rerank | generate;
        // default flags the reranker (right) and retrieval (wrong); the gate flags the generator (right) only
        assertThat(TierGateSearch.harm(generate, rerank | retrieve, scored, faulty))
                .as("drops the reranker's true positive, adds no false one; the generator found and the false flag "
                        + "cleared earn nothing")
                .containsExactly(1, 0);
        assertThat(TierGateSearch.harm(retrieve | rerank, rerank, scored, faulty)).containsExactly(0, 1);
        assertThat(TierGateSearch.harm(rerank, rerank, scored, faulty)).containsExactly(0, 0);
    }

    @Test
    void shouldNotLetFaultsTheGateFindsPayForFaultsItDrops() {
        // Default mode finds every fault but half of the generator's, and the cheap models find all of those. They
        // find every other fault too, but a third of the reranker's, which they see only faintly, and as faintly as
        // some sound rerankers. A gate that calls the faint ones healthy loses nothing net (the generator faults
        // it finds pay for the reranker faults it drops), and a net loss budget let the search choose that; the
        // budget charged for harm only must not.
        List<LabeledRun> runs = SyntheticRuns.generate(2_000, 17);
        List<ThresholdSearch.ScoredRun> full = new ArrayList<>();
        Map<String, Map<Stage, Double>> cheap = new HashMap<>();
        List<LabeledRun> faintRerankFaults = new ArrayList<>();
        int generateFaults = 0;
        int rerankFaults = 0;
        int soundRerankers = 0;
        for (LabeledRun run : runs) {
            Map<Stage, Double> p = new EnumMap<>(Stage.class);
            Map<Stage, Double> c = new EnumMap<>(Stage.class);
            for (Stage stage : run.input().present()) {
                boolean fault = run.scoredStages().contains(stage) && run.faulty(stage);
                boolean missedByDefault = fault && stage == Stage.GENERATE && generateFaults++ % 2 == 0;
                boolean faint = stage == Stage.RERANK
                        && (fault ? rerankFaults++ % 3 == 0 : soundRerankers++ % 10 == 0);
                p.put(stage, !fault || missedByDefault ? 0.01 : 0.99);
                c.put(stage, faint ? FAINT_RERANK : fault ? 0.97 : 0.02);
                if (faint && fault) {
                    faintRerankFaults.add(run);
                }
            }
            full.add(new ThresholdSearch.ScoredRun(run, p));
            cheap.put(run.runId(), c);
        }
        assertThat(faintRerankFaults).hasSizeGreaterThan(30);

        TierGateSearch.Result result = TierGateSearch.search(full, cheap, THRESHOLDS, 0.01, 0.05);

        double[] healthyBelow = new double[Stage.values().length];
        double[] faultyFrom = new double[Stage.values().length];
        result.bounds().forEach((stage, b) -> {
            healthyBelow[stage.ordinal()] = b.healthyBelow();
            faultyFrom[stage.ordinal()] = b.faultyFrom();
        });
        for (LabeledRun run : faintRerankFaults) {
            double[] c = new double[Stage.values().length];
            cheap.get(run.runId()).forEach((stage, v) -> c[stage.ordinal()] = v);
            int gate = TierGate.flaggedIfSkipped(c, StageMasks.of(run.input().present()), healthyBelow,
                    faultyFrom);
            assertThat(gate == TierGate.CHECK || (gate & 1 << Stage.RERANK.ordinal()) != 0)
                    .as("%s: a reranker fault default mode flags is checked or flagged by the gate", run.runId())
                    .isTrue();
        }
        assertThat(result.validation().skippedRuns()).as("the gate still decides runs alone").isPositive();
    }

    @Test
    void shouldPlaceEveryStagesBoundsAtTheSameLogOddsDistanceFromItsThreshold() {
        List<LabeledRun> runs = SyntheticRuns.generate(600, 5);
        List<ThresholdSearch.ScoredRun> full = new ArrayList<>();
        Map<String, Map<Stage, Double>> cheap = new HashMap<>();
        java.util.Random random = new java.util.Random(5);
        for (LabeledRun run : runs) {
            Map<Stage, Double> p = new EnumMap<>(Stage.class);
            Map<Stage, Double> c = new EnumMap<>(Stage.class);
            for (Stage stage : run.input().present()) {
                boolean fault = run.scoredStages().contains(stage) && run.faulty(stage);
                double noisy = Math.min(0.999, Math.max(0.001, (fault ? 0.8 : 0.2) + random.nextGaussian() * 0.2));
                p.put(stage, noisy);
                c.put(stage, noisy);
            }
            full.add(new ThresholdSearch.ScoredRun(run, p));
            cheap.put(run.runId(), c);
        }

        Map<Stage, TierGate.Bounds> bounds = TierGateSearch.search(full, cheap, THRESHOLDS, 0.01, 0.05).bounds();

        TierGate.Bounds rewrite = bounds.get(Stage.REWRITE);
        assertThat(rewrite.healthyBelow()).as("a gate that calls some stages healthy was found").isBetween(0.01, 0.99);
        double healthy = distance(rewrite.healthyBelow(), Stage.REWRITE);
        for (Stage stage : THRESHOLDS.keySet()) { // the stages the bundle scores
            assertThat(distance(bounds.get(stage).healthyBelow(), stage)).as(stage.name()).isCloseTo(healthy,
                    within(1e-6));
            if (rewrite.faultyFrom() < TierGate.NEVER_FAULTY) {
                assertThat(distance(bounds.get(stage).faultyFrom(), stage)).as(stage.name())
                        .isCloseTo(distance(rewrite.faultyFrom(), Stage.REWRITE), within(1e-6));
            } else {
                assertThat(bounds.get(stage).faultyFrom()).as(stage.name()).isEqualTo(TierGate.NEVER_FAULTY);
            }
        }
    }

    private static double distance(double bound, Stage stage) {
        return TierGateSearch.logit(bound) - TierGateSearch.logit(THRESHOLDS.get(stage));
    }
}
