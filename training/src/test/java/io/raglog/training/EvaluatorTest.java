package io.raglog.training;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.raglog.checks.FeatureList;
import io.raglog.schemas.Label;
import io.raglog.schemas.LabelStages;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.SchemaIds;
import io.raglog.schemas.Stage;
import io.raglog.score.ScoringInput;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The metrics on four runs worked out by hand. */
class EvaluatorTest {

    private static final Set<Stage> EMBED_RETRIEVE_GENERATE = EnumSet.of(Stage.EMBED, Stage.RETRIEVE, Stage.GENERATE);

    /**
     * <pre>
     * run  present                    truth          answer   flagged
     * a    embed retrieve generate    retrieve=1     wrong    retrieve         TP retrieve, 2 TN
     * b    rewrite + a's              rewrite=1      right    -                FN rewrite, 3 TN
     * c    a's + rerank               sound          right    rerank           FP rerank, 3 TN
     * d    a's                        sound          right    -                3 TN
     * </pre>
     */
    private static List<RunOutcome> fourRuns() {
        return List.of(
                new RunOutcome("a", EMBED_RETRIEVE_GENERATE, EnumSet.of(Stage.RETRIEVE),
                        new LabelStages(null, 0, 1, null, 0), false),
                new RunOutcome("b", EnumSet.of(Stage.REWRITE, Stage.EMBED, Stage.RETRIEVE, Stage.GENERATE),
                        EnumSet.noneOf(Stage.class), new LabelStages(1, 0, 0, null, 0), true),
                new RunOutcome("c", EnumSet.of(Stage.EMBED, Stage.RETRIEVE, Stage.RERANK, Stage.GENERATE),
                        EnumSet.of(Stage.RERANK), new LabelStages(null, 0, 0, 0, 0), true),
                new RunOutcome("d", EMBED_RETRIEVE_GENERATE, EnumSet.noneOf(Stage.class),
                        new LabelStages(null, 0, 0, null, 0), true));
    }

    @Test
    void shouldPoolStageDecisionsOverEveryPresentStageOfEveryRun() {
        MethodReport report = MethodReport.of("m", "hand", fourRuns());
        StageMetrics pooled = report.pooled();
        assertThat(List.of(pooled.truePositives(), pooled.falsePositives(), pooled.falseNegatives(),
                pooled.trueNegatives())).containsExactly(1, 1, 1, 11);
        assertThat(pooled.precision()).isEqualTo(0.5);
        assertThat(pooled.recall()).isEqualTo(0.5);
        assertThat(pooled.f1()).isEqualTo(0.5);
        assertThat(report.stage(Stage.RETRIEVE).f1()).isEqualTo(1.0);
        assertThat(report.stage(Stage.REWRITE).recall()).isZero();
        assertThat(report.stage(Stage.RERANK).precision()).isZero();
        assertThat(report.stage(Stage.EMBED).instances()).isEqualTo(4);
        assertThat(report.stage(Stage.RERANK).instances()).isEqualTo(1);
    }

    @Test
    void shouldCountRunLevelFalsePositivesAndFaultyRunsCaughtByAnswerCorrectness() {
        MethodReport.RunLevel runs = MethodReport.of("m", "hand", fourRuns()).runs();
        assertThat(runs.soundRuns()).isEqualTo(2);
        assertThat(runs.soundRunsFlagged()).isEqualTo(1);
        assertThat(runs.falsePositiveRate()).isEqualTo(0.5);
        assertThat(runs.faultyCorrectAnswerRuns()).isEqualTo(1);
        assertThat(runs.faultyCorrectAnswerCaught()).isZero();
        assertThat(runs.faultyWrongAnswerRuns()).isEqualTo(1);
        assertThat(runs.faultyWrongAnswerCaught()).isEqualTo(1.0);
    }

    @Test
    void shouldNotCountAFlagOnTheWrongStageAsCatchingAFaultyRun() {
        RunOutcome wrongStage = new RunOutcome("e", EMBED_RETRIEVE_GENERATE, EnumSet.of(Stage.GENERATE),
                new LabelStages(null, 1, 0, null, 0), true);
        MethodReport report = MethodReport.of("m", "hand", List.of(wrongStage));
        assertThat(report.runs().faultyCorrectAnswerCaught()).isZero();
        assertThat(report.pooled().f1()).isZero();
    }

    @Test
    void shouldLetAnswerOnlyFlagEveryPresentStageOfAWrongAnswerAndNothingElse() {
        LabeledRun wrong = labeled("a", EMBED_RETRIEVE_GENERATE, new LabelStages(null, 0, 1, null, 0), false, Map.of());
        LabeledRun faultyButRight = labeled("b", EnumSet.of(Stage.REWRITE, Stage.EMBED, Stage.RETRIEVE, Stage.GENERATE),
                new LabelStages(1, 0, 0, null, 0), true, Map.of());
        assertThat(Baselines.ANSWER_ONLY.flag(wrong)).containsExactlyInAnyOrderElementsOf(EMBED_RETRIEVE_GENERATE);
        assertThat(Baselines.ANSWER_ONLY.flag(faultyButRight)).isEmpty();
        // a: TP retrieve, FP embed and generate; b: FN rewrite -> P 1/3, R 1/2, F1 2/(2+2+1)
        MethodReport report = MethodReport.of("answer-only", "", List.of(
                Evaluator.outcome(wrong, wrong.scoredStages(), Baselines.ANSWER_ONLY.flag(wrong)),
                Evaluator.outcome(faultyButRight, faultyButRight.scoredStages(),
                        Baselines.ANSWER_ONLY.flag(faultyButRight))));
        assertThat(report.pooled().precision()).isCloseTo(1.0 / 3, within(1e-12));
        assertThat(report.pooled().recall()).isEqualTo(0.5);
        assertThat(report.pooled().f1()).isCloseTo(0.4, within(1e-12));
    }

    @Test
    void shouldLetRulesOnlyFlagAStageWhenItsFixedRuleFiresAndNeverOnAMissingFeature() {
        Map<String, Double> features = new LinkedHashMap<>();
        features.put(FeatureList.REWRITE_LOST_DATES, 1.0);
        features.put(FeatureList.EMBED_LOST_KEY_TERMS, 0.0);
        features.put(FeatureList.EMBED_TRUNCATED, 1.0);
        features.put(FeatureList.RETRIEVE_KEY_TERMS_MISSING, 0.0);
        features.put(FeatureList.GENERATE_UNSUPPORTED_NUMBERS, null);
        LabeledRun run = labeled("r", EnumSet.of(Stage.REWRITE, Stage.EMBED, Stage.RETRIEVE, Stage.GENERATE),
                new LabelStages(1, 0, 0, null, 0), true, features);
        assertThat(Baselines.RULES_ONLY.flag(run)).containsExactly(Stage.REWRITE, Stage.EMBED);
    }

    static LabeledRun labeled(String runId, Set<Stage> present, LabelStages stages, boolean answerCorrect,
            Map<String, Double> features) {
        RunFeatures f = new RunFeatures(RunFeatures.SCHEMA_V1, runId, "support-bot", "q", FeatureList.VERSION,
                features, new LlmUsage(5, 0, 0, 0.0, false, List.of(), SyntheticRuns.JUDGE), null, List.of());
        Label label = new Label(SchemaIds.LABEL_V1, runId, "support-bot", "profile", "q-1", "q", null, "evt",
                stages, null, null, null, null, answerCorrect, true, "x", "x", List.of(), Instant.EPOCH);
        return new LabeledRun(new ScoringInput(f, present, "x"), label);
    }
}
