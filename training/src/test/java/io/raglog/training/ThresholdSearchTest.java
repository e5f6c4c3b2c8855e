package io.raglog.training;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.FeatureList;
import io.raglog.schemas.Label;
import io.raglog.schemas.LabelStages;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.SchemaIds;
import io.raglog.schemas.Stage;
import io.raglog.score.ScoringInput;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ThresholdSearchTest {

    /**
     * The trap of coordinate ascent under a hard budget. Rewrite, tuned first, can catch its 10 faults only by also
     * flagging 5 sound runs, the whole 5 % budget; the generator's 40 faults cost the same 5 sound runs. Once the
     * rewriter has spent the budget, flagging the generator breaks it and unflagging the rewriter alone costs F1, so
     * plain coordinate ascent stops at F1 0.31. Allocating the budget by what each stage buys with it lets the
     * generator win it: 0.84.
     */
    @Test
    void shouldGiveTheBudgetToTheStageThatCatchesMostWhenAnEarlierStageSpentItFirst() {
        List<ThresholdSearch.ScoredRun> runs = rewriteAndGenerationFaults();
        for (int i = 0; i < 100; i++) {
            double rewrite = i < 5 ? 0.75 : 0.05;
            double generate = i >= 5 && i < 10 ? 0.95 : 0.05;
            runs.add(run("sound-" + i, null, rewrite, generate));
        }
        Map<Stage, Double> nothing = flaggingNothing();

        ThresholdSearch.Result greedy = ThresholdSearch.search(runs, 0.05, nothing, EnumSet.allOf(Stage.class));
        ThresholdSearch.Result result = ThresholdSearch.search(runs, 0.05);

        assertThat(greedy.f1()).isLessThan(0.35);
        assertThat(result.runFpr()).isLessThanOrEqualTo(0.05);
        assertThat(result.f1()).isGreaterThan(0.83);
        assertThat(result.thresholds().get(Stage.GENERATE)).isLessThan(0.90);
        assertThat(result.thresholds().get(Stage.REWRITE)).isGreaterThan(0.75);
    }

    @Test
    void shouldNeverDoWorseThanPlainCoordinateAscentAndStayWithinTheBudget() {
        List<ThresholdSearch.ScoredRun> runs = noisyRuns(7, 3);
        Map<Stage, Double> nothing = flaggingNothing();

        ThresholdSearch.Result greedy = ThresholdSearch.search(runs, 0.05, nothing, EnumSet.allOf(Stage.class));
        ThresholdSearch.Result result = ThresholdSearch.search(runs, 0.05);

        assertThat(result.runFpr()).isLessThanOrEqualTo(0.05);
        assertThat(result.macroF1()).isGreaterThanOrEqualTo(greedy.macroF1());
    }

    /**
     * A sample's few runs near a threshold decide where one search puts it; the median over searches of resamples
     * keeps where most agree. Noisy probabilities, two samples of the same kind of runs: the bagged thresholds of the
     * two lie closer together than one search's, and each stays within the budget on its own runs.
     */
    @Test
    void shouldMoveLessBetweenTwoSamplesOfTheSameRunsThanOneSearchAndStayWithinTheBudget() {
        List<ThresholdSearch.ScoredRun> first = noisyRuns(3, 3);
        List<ThresholdSearch.ScoredRun> second = noisyRuns(4, 4);

        double oneSearch = distance(ThresholdSearch.search(first, 0.05), ThresholdSearch.search(second, 0.05));
        ThresholdSearch.Result baggedFirst = ThresholdSearch.bagged(first, 0.05, 11);
        ThresholdSearch.Result baggedSecond = ThresholdSearch.bagged(second, 0.05, 11);

        assertThat(distance(baggedFirst, baggedSecond)).isLessThan(oneSearch);
        assertThat(baggedFirst.runFpr()).isLessThanOrEqualTo(0.05);
        assertThat(baggedSecond.runFpr()).isLessThanOrEqualTo(0.05);
        // a seed draws the same replicates
        assertThat(ThresholdSearch.bagged(first, 0.05, 11).thresholds()).isEqualTo(baggedFirst.thresholds());
    }

    /** Medians that together overshoot the budget are raised where a step costs the least F1 per sound run it spares. */
    @Test
    void shouldRaiseThresholdsThatTogetherOvershootTheBudgetWhereItCostsTheLeast() {
        List<ThresholdSearch.ScoredRun> runs = rewriteAndGenerationFaults();
        for (int i = 0; i < 100; i++) {
            // 3 sound runs the rewriter's 0.6 flags, 3 the generator's flags at any threshold, 3 at 0.70
            double rewrite = i < 3 ? 0.65 : 0.05;
            double generate = i >= 3 && i < 6 ? 0.95 : i >= 6 && i < 9 ? 0.70 : 0.05;
            runs.add(run("sound-" + i, null, rewrite, generate));
        }
        Map<Stage, Double> over = flaggingNothing();
        over.put(Stage.REWRITE, 0.6);
        over.put(Stage.GENERATE, 0.6);

        Map<Stage, Double> within = ThresholdSearch.withinBudget(runs, over, 0.05);

        // 9 % of the sound runs flagged, each stage's at 0.65 and 0.70 below its faults: each threshold is raised past
        // them and no further, every fault still caught; the generator's three at 0.95 stay flagged, within the budget
        MethodReport report = ThresholdSearch.measure(runs, within);
        assertThat(report.runs().falsePositiveRate()).isEqualTo(0.03);
        assertThat(report.pooled().recall()).isEqualTo(1.0);
        assertThat(within.get(Stage.REWRITE)).isBetween(0.65, 0.70);
        assertThat(within.get(Stage.GENERATE)).isBetween(0.70, 0.90);
        // thresholds within the budget stay where they are
        assertThat(ThresholdSearch.withinBudget(runs, within, 0.05)).isEqualTo(within);
    }

    /** 300 synthetic runs, each present stage's probability 0.6 if faulty, else 0.2, plus noise (sd 0.25). */
    private static List<ThresholdSearch.ScoredRun> noisyRuns(long runsSeed, long noiseSeed) {
        List<ThresholdSearch.ScoredRun> runs = new ArrayList<>();
        java.util.Random random = new java.util.Random(noiseSeed);
        for (LabeledRun run : SyntheticRuns.generate(300, runsSeed)) {
            Map<Stage, Double> p = new EnumMap<>(Stage.class);
            for (Stage stage : run.input().present()) {
                double base = run.faulty(stage) ? 0.6 : 0.2;
                p.put(stage, Math.max(0, Math.min(1, base + 0.25 * random.nextGaussian())));
            }
            runs.add(new ThresholdSearch.ScoredRun(run, p));
        }
        return runs;
    }

    /** 10 rewrite faults the rewriter scores 0.70, 40 generation faults the generator scores 0.90; room for more. */
    private static List<ThresholdSearch.ScoredRun> rewriteAndGenerationFaults() {
        List<ThresholdSearch.ScoredRun> runs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            runs.add(run("rewrite-fault-" + i, Stage.REWRITE, 0.70, 0.05));
        }
        for (int i = 0; i < 40; i++) {
            runs.add(run("generate-fault-" + i, Stage.GENERATE, 0.05, 0.90));
        }
        return runs;
    }

    private static Map<Stage, Double> flaggingNothing() {
        Map<Stage, Double> nothing = new EnumMap<>(Stage.class);
        for (Stage stage : Stage.values()) {
            nothing.put(stage, ThresholdSearch.FLAG_NOTHING);
        }
        return nothing;
    }

    /** The sum over stages of how far apart two results put the stage's threshold. */
    private static double distance(ThresholdSearch.Result a, ThresholdSearch.Result b) {
        double d = 0;
        for (Stage stage : Stage.values()) {
            d += Math.abs(a.thresholds().get(stage) - b.thresholds().get(stage));
        }
        return d;
    }

    /**
     * Why the search weighs every stage the same. 100 sound runs, a budget of 5 of them. The rewriter's 10 faults
     * (0.70) can be caught only by also flagging 3 sound runs (0.75); so can the generator's 40 faults at 0.60 (3
     * sound runs at 0.65), while its other 60 (0.90) cost nothing. Both would take 6 sound runs. Pooled F1 spends the
     * budget on the generator's 40 (0.94 against 0.77) and leaves the rewriter at recall 0; the mean of the stages' F1
     * catches every rewrite fault and 60 % of the generator's (0.81 against 0.49).
     */
    @Test
    void shouldNotLeaveASmallStageUnseenToBuyALargeOneAShareOfItsFaults() {
        List<ThresholdSearch.ScoredRun> runs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            runs.add(run("rewrite-fault-" + i, Stage.REWRITE, 0.70, 0.05));
        }
        for (int i = 0; i < 100; i++) {
            runs.add(run("generate-fault-" + i, Stage.GENERATE, 0.05, i < 60 ? 0.90 : 0.60));
        }
        for (int i = 0; i < 100; i++) {
            double rewrite = i < 3 ? 0.75 : 0.05;
            double generate = i >= 3 && i < 6 ? 0.65 : 0.05;
            runs.add(run("sound-" + i, null, rewrite, generate));
        }

        ThresholdSearch.Result result = ThresholdSearch.search(runs, 0.05);
        MethodReport report = ThresholdSearch.measure(runs, result.thresholds());

        assertThat(result.runFpr()).isLessThanOrEqualTo(0.05);
        assertThat(report.stage(Stage.REWRITE).recall()).isEqualTo(1.0);
        assertThat(report.stage(Stage.GENERATE).recall()).isEqualTo(0.6);
        assertThat(result.macroF1()).isGreaterThan(0.80);
        assertThat(result.f1()).isLessThan(0.80);
    }

    /**
     * A team's reviews already over the budget by what no threshold controls (here a rewriter that may not be tuned):
     * 10 of 100 sound runs flagged. Lowering the generator's threshold to 0.60 would catch 20 more faults and flag
     * only those same 10 sound runs, so the rate on the reviewed runs stays where it is; on the runs that follow,
     * those are new false flags. The search lowers it only as far as catches faults without a false flag (0.80).
     */
    @Test
    void shouldNotSpendFalseFlagsOnSoundRunsAlreadyFlaggedWhileOverTheBudget() {
        List<ThresholdSearch.ScoredRun> runs = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            runs.add(run("generate-fault-" + i, Stage.GENERATE, 0.05, i < 20 ? 0.80 : 0.60));
        }
        for (int i = 0; i < 100; i++) {
            boolean spoilt = i < 10;
            runs.add(run("sound-" + i, null, spoilt ? 0.95 : 0.05, spoilt ? 0.65 : 0.05));
        }
        Map<Stage, Double> start = new EnumMap<>(Stage.class);
        start.put(Stage.REWRITE, 0.5);
        start.put(Stage.GENERATE, 0.9);

        ThresholdSearch.Result result = ThresholdSearch.search(runs, 0.05, start, EnumSet.of(Stage.GENERATE));
        MethodReport report = ThresholdSearch.measure(runs, result.thresholds());

        assertThat(result.runFpr()).isEqualTo(0.10);
        assertThat(result.thresholds().get(Stage.GENERATE)).isGreaterThan(0.65).isLessThanOrEqualTo(0.80);
        assertThat(report.stage(Stage.GENERATE).recall()).isEqualTo(0.5);
        assertThat(report.stage(Stage.GENERATE).falsePositives()).isZero();
    }

    /**
     * Over the budget as above, lowering assembly's threshold from 0.43 to below 0.30 would catch 10 more faults and
     * flag, by the model, 5 sound runs the context-assembly rule already flags (their lost text answers the question
     * and the model gives 0.40, above the rule's floor): on the reviewed runs no flag is added, on the runs that follow
     * the model's new flags need no rule. The search keeps assembly's threshold above those 5.
     */
    @Test
    void shouldNotLowerAThresholdWhereOnlyARuleHidesTheModelsNewFalseFlagsWhileOverTheBudget() {
        List<ThresholdSearch.ScoredRun> runs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            runs.add(assemblyRun("assembly-fault-" + i, true, i < 10 ? 0.30 : 0.60, 0.05, false));
        }
        for (int i = 0; i < 100; i++) {
            runs.add(assemblyRun("sound-" + i, false, i >= 10 && i < 15 ? 0.40 : 0.05, i < 10 ? 0.95 : 0.05,
                    i >= 10 && i < 15));
        }
        Map<Stage, Double> start = new EnumMap<>(Stage.class);
        start.put(Stage.REWRITE, 0.5);
        start.put(Stage.ASSEMBLE, 0.43);
        start.put(Stage.GENERATE, 0.9);

        ThresholdSearch.Result result = ThresholdSearch.search(runs, 0.05, start, EnumSet.of(Stage.ASSEMBLE));

        assertThat(result.runFpr()).isEqualTo(0.15);
        assertThat(result.thresholds().get(Stage.ASSEMBLE)).isGreaterThan(0.40);
        assertThat(ThresholdSearch.soundFlagged(runs, Stage.ASSEMBLE, result.thresholds().get(Stage.ASSEMBLE)))
                .isZero();
    }

    /** A run with a rewriter, a context assembly and a generator; assembly faulty or every stage sound. */
    private static ThresholdSearch.ScoredRun assemblyRun(String id, boolean assemblyFaulty, double assemble,
            double rewrite, boolean lostTextAnswers) {
        EnumSet<Stage> present = EnumSet.of(Stage.REWRITE, Stage.ASSEMBLE, Stage.GENERATE);
        Map<String, Double> lost = lostTextAnswers
                ? Map.of(FeatureList.ASSEMBLE_LOST_ANSWER_MATCH, 0.6, FeatureList.ASSEMBLE_LOST_ANSWER_GAP, 0.2)
                : Map.of(FeatureList.ASSEMBLE_LOST_ANSWER_MATCH, 0.1, FeatureList.ASSEMBLE_LOST_ANSWER_GAP, 0.0);
        RunFeatures features = new RunFeatures(RunFeatures.SCHEMA_V1, id, "test-pipeline", "q", FeatureList.VERSION,
                lost, new LlmUsage(0, 0, 0, 0.0, false, List.of(), "offline-judge/v2"), null, List.of());
        LabelStages stages = new LabelStages(0, null, null, null, assemblyFaulty ? 1 : 0, 0);
        Label label = new Label(SchemaIds.LABEL_V1, id, "test-pipeline", "test-profile", "q-" + id, "q", null,
                "evt-" + id, stages, assemblyFaulty ? Stage.ASSEMBLE.id() : null, null,
                assemblyFaulty ? Label.ORIGIN_INJECTED : null, null, !assemblyFaulty, true, "a", "a", List.of(),
                Instant.EPOCH);
        Map<Stage, Double> p = new EnumMap<>(Stage.class);
        p.put(Stage.REWRITE, rewrite);
        p.put(Stage.ASSEMBLE, assemble);
        p.put(Stage.GENERATE, 0.05);
        return new ThresholdSearch.ScoredRun(new LabeledRun(new ScoringInput(features, present, "a"), label), p);
    }

    /** A run with a rewriter and a generator only; {@code faulty} is its one faulty stage, or null when sound. */
    private static ThresholdSearch.ScoredRun run(String id, Stage faulty, double rewrite, double generate) {
        EnumSet<Stage> present = EnumSet.of(Stage.REWRITE, Stage.GENERATE);
        RunFeatures features = new RunFeatures(RunFeatures.SCHEMA_V1, id, "test-pipeline", "q", FeatureList.VERSION,
                Map.of(), new LlmUsage(0, 0, 0, 0.0, false, List.of(), "offline-judge/v2"), null, List.of());
        LabelStages stages = new LabelStages(faulty == Stage.REWRITE ? 1 : 0, null, null, null,
                faulty == Stage.GENERATE ? 1 : 0);
        Label label = new Label(SchemaIds.LABEL_V1, id, "test-pipeline", "test-profile", "q-" + id, "q", null,
                "evt-" + id, stages, faulty == null ? null : faulty.id(), null,
                faulty == null ? null : Label.ORIGIN_INJECTED, null, faulty == null, true, "a", "a", List.of(),
                Instant.EPOCH);
        Map<Stage, Double> p = new EnumMap<>(Stage.class);
        p.put(Stage.REWRITE, rewrite);
        p.put(Stage.GENERATE, generate);
        return new ThresholdSearch.ScoredRun(new LabeledRun(new ScoringInput(features, present, "a"), label), p);
    }
}
