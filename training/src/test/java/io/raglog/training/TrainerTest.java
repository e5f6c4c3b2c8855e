package io.raglog.training;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.checks.FeatureList;
import io.raglog.schemas.Json;
import io.raglog.schemas.Label;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import io.raglog.score.ModelBundle;
import io.raglog.score.Scorer;
import io.raglog.score.ScoringInput;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class TrainerTest {

    static final Instant TRAINED_AT = Instant.parse("2026-11-29T12:00:00Z");

    private static ModelBundle bundle;
    private static EvaluationReport unseen;

    @BeforeAll
    static void trainOnce() {
        bundle = Trainer.train(SyntheticRuns.generate(1000, 1), Trainer.Settings.defaults("synthetic"), TRAINED_AT);
        unseen = Evaluator.evaluate("synthetic runs of another seed", new Scorer(bundle),
                SyntheticRuns.generate(500, 2));
    }

    @AfterAll
    static void close() {
        bundle.close();
    }

    @Test
    void shouldBeatAnswerOnlyAndRulesOnlyOnRunsItNeverSaw() {
        System.out.println(unseen.toTable());
        assertThat(unseen.raglog().pooled().f1())
                .isGreaterThan(unseen.answerOnly().pooled().f1() + 0.2)
                .isGreaterThan(unseen.rulesOnly().pooled().f1() + 0.1)
                .isGreaterThan(0.8);
        assertThat(unseen.raglog().runs().faultyCorrectAnswerCaught())
                .isGreaterThan(unseen.rulesOnly().runs().faultyCorrectAnswerCaught())
                .isGreaterThan(0.7);
        assertThat(unseen.answerOnly().runs().faultyCorrectAnswerCaught()).isZero();
    }

    @Test
    void shouldChooseThresholdsOnOutOfFoldProbabilitiesWithinTheRunLevelFalsePositiveBudget() {
        TrainingSummary training = BundleReports.training(bundle);
        // the out-of-fold runs are a sample: the search spends only the share whose 90 % upper bound is within 5 %
        Matcher budget = Pattern.compile("rate <= (0\\.\\d+) \\(the share of the "
                + "sound runs whose 90 % upper bound stays within 0.05\\)").matcher(training.thresholdObjective());
        assertThat(budget.find()).as(training.thresholdObjective()).isTrue();
        double searched = Double.parseDouble(budget.group(1));
        assertThat(searched).isBetween(0.02, 0.05 - 0.005);
        assertThat(training.validationRunFpr()).isLessThanOrEqualTo(searched + 1e-9);
        assertThat(training.validationF1()).isGreaterThan(0.8);
        // every fitting run was scored once, by the models of the folds it was not in
        assertThat(training.trainRuns() + training.testRuns()).isEqualTo(1000);
        assertThat(training.validationRuns()).isEqualTo(training.trainRuns());
        assertThat(training.thresholdObjective()).contains("5-fold cross-validation", "refitted on all fitting runs");
        assertThat(training.judge()).isEqualTo(SyntheticRuns.JUDGE);
        assertThat(training.profiles()).hasSize(3);
        assertThat(bundle.thresholds()).allSatisfy((stage, t) -> assertThat(t).isBetween(0.0, 1.0));
    }

    @Test
    void shouldTrainATierGateThatMeetsItsF1LossBudgetOnItsValidationRuns() {
        Trainer.Settings d = Trainer.Settings.defaults("tiered");
        // one validation split: the shipped models and gate are exactly those the bounds were chosen with
        Trainer.Settings oneSplit = new Trainer.Settings(d.name(), d.seed(), d.validationShare(), d.testShare(),
                d.maxRunFpr(), d.minPerClass(), d.models(), 0, true, true, 0.01);
        List<LabeledRun> runs = SyntheticRuns.generate(600, 4);
        try (ModelBundle b = Trainer.train(runs, oneSplit, TRAINED_AT)) {
            TierValidation v = BundleReports.tierValidation(b);
            assertThat(v.maxF1Loss()).isEqualTo(0.01);
            assertThat(v.f1Loss()).isLessThanOrEqualTo(0.01 + 1e-9);
            assertThat(v.skippedRuns()).as("the gate decides some runs alone").isPositive();
            assertThat(v.callsPerRunTiered()).isLessThan(v.callsPerRunDefault());

            // measured again from scratch on the validation runs, through the evaluation path
            List<LabeledRun> validation = runs.stream()
                    .filter(r -> Trainer.split(r.questionKey(), oneSplit) == Trainer.Split.VALIDATION).toList();
            EvaluationReport report = Evaluator.evaluate("validation split", new Scorer(b), validation);
            assertThat(report.tiered().skippedRuns()).isEqualTo(v.skippedRuns());
            assertThat(report.tiered().f1Loss()).isLessThanOrEqualTo(0.01 + 1e-9);
            assertThat(report.tiered().raglog().pooled().f1()).isEqualTo(v.tieredF1());
            assertThat(report.raglog().pooled().f1()).isEqualTo(v.defaultF1());
            assertThat(report.tiered().callsPerRunTiered()).isEqualTo(v.callsPerRunTiered());
            assertThat(report.toTable()).contains("tiered vs default");
        }
    }

    @Test
    void shouldNotTrainOnFeaturesThatOnlySayHowThePipelineIsBuilt() {
        List<String> names = bundle.features().names();
        assertThat(names).doesNotContainAnyElementsOf(FeatureList.PIPELINE_SHAPE);
        assertThat(names).hasSize(FeatureList.names().size() - FeatureList.PIPELINE_SHAPE.size())
                .contains(FeatureList.RETRIEVE_ANSWER_MATCH, FeatureList.RERANK_DROPPED_ANSWER_GAP);
    }

    @Test
    void shouldKeepTheRunsOfOneQuestionInOneSplitAndOneFold() {
        Trainer.Settings settings = Trainer.Settings.defaults("grouped");
        java.util.Set<Trainer.Split> splitsSeen = java.util.EnumSet.noneOf(Trainer.Split.class);
        for (LabeledRun run : SyntheticRuns.generate(200, 5)) {
            // the same question asked again in another run, under another run id
            LabeledRun again = withRunId(run, run.runId() + "-again");
            assertThat(again.questionKey()).isEqualTo(run.questionKey());
            String key = run.questionKey();
            assertThat(Trainer.split(again.questionKey(), settings)).isEqualTo(Trainer.split(key, settings));
            assertThat(Trainer.fold(again.questionKey(), settings)).isEqualTo(Trainer.fold(key, settings));
            splitsSeen.add(Trainer.split(key, settings));
        }
        assertThat(splitsSeen).as("questions still spread over every split").hasSize(Trainer.Split.values().length);
    }

    @Test
    void shouldKeyARunWithoutAQuestionIdByItsQuestionThenByItself() {
        LabeledRun run = SyntheticRuns.generate(1, 5).get(0);
        assertThat(run.questionKey()).isEqualTo("id:" + run.label().questionId());
        Label l = run.label();
        Label reviewed = new Label(l.schema(), l.runId(), l.pipeline(), l.profile(),
                null, " " + l.question() + " ", l.runHint(), l.generatorEventId(), l.stages(), l.faultStage(),
                l.faultType(), l.origin(), l.faultDetail(), l.answerCorrect(), l.isAnswerable(), l.expectedAnswer(),
                l.answer(), l.evidenceChunkIds(), l.startedAt());
        assertThat(new LabeledRun(run.input(), reviewed).questionKey()).isEqualTo("question:" + l.question());
        Label bare = new Label(l.schema(), l.runId(), l.pipeline(), l.profile(),
                null, null, l.runHint(), l.generatorEventId(), l.stages(), l.faultStage(), l.faultType(), l.origin(),
                l.faultDetail(), l.answerCorrect(), l.isAnswerable(), l.expectedAnswer(), l.answer(),
                l.evidenceChunkIds(), l.startedAt());
        assertThat(new LabeledRun(run.input(), bare).questionKey()).isEqualTo("run:" + l.runId());
    }

    /** The run under another id, its label and features alike. */
    private static LabeledRun withRunId(LabeledRun run, String runId) {
        RunFeatures f = run.input().features();
        RunFeatures renamed = new RunFeatures(f.schema(), runId, f.pipeline(), f.question(), f.featureListVersion(),
                f.features(), f.llm(), f.evidenceFlow(), f.findings());
        Label l = run.label();
        Label relabeled = new Label(l.schema(), runId, l.pipeline(), l.profile(),
                l.questionId(), l.question(), l.runHint(), l.generatorEventId(), l.stages(), l.faultStage(),
                l.faultType(), l.origin(), l.faultDetail(), l.answerCorrect(), l.isAnswerable(), l.expectedAnswer(),
                l.answer(), l.evidenceChunkIds(), l.startedAt());
        return new LabeledRun(new ScoringInput(renamed, run.input().present(), run.input().answer()), relabeled);
    }

    @Test
    void shouldChooseThresholdsOnOneValidationSplitWhenAskedForNoFolds() {
        Trainer.Settings d = Trainer.Settings.defaults("one-split");
        Trainer.Settings oneSplit = new Trainer.Settings(d.name(), d.seed(), d.validationShare(), d.testShare(),
                d.maxRunFpr(), d.minPerClass(), d.models(), 0, false);
        try (ModelBundle b = Trainer.train(SyntheticRuns.generate(600, 3), oneSplit, TRAINED_AT)) {
            TrainingSummary t = BundleReports.training(b);
            assertThat(t.trainRuns() + t.validationRuns() + t.testRuns()).isEqualTo(600);
            assertThat(t.validationRuns()).isBetween(80, 160);
            assertThat(t.thresholdObjective()).contains("validation split");
            assertThat(t.validationRunFpr()).isLessThanOrEqualTo(0.05);
        }
    }

    @Test
    void shouldKeepItsFiguresInEconomyModeWhenTrainedWithEconomyCopies() {
        List<LabeledRun> economy = SyntheticRuns.generate(500, 2).stream().map(TrainerTest::withoutSupportCheck)
                .toList();
        EvaluationReport cheap = Evaluator.evaluate("economy", new Scorer(bundle), economy);
        assertThat(cheap.raglog().pooled().f1()).isGreaterThan(unseen.raglog().pooled().f1() - 0.03);
        // the models saw the support check missing in training: the imputing models carry an indicator for it
        int supportColumn = bundle.features().names().indexOf(FeatureList.LLM_SUPPORT_FAULT);
        assertThat(bundle.model(Stage.GENERATE).imputer().indicators()).contains(supportColumn);
    }

    /** The run as economy mode would have scored it: the support check was never asked. */
    private static LabeledRun withoutSupportCheck(LabeledRun run) {
        RunFeatures f = run.input().features();
        Map<String, Double> kept = new LinkedHashMap<>(f.features());
        FeatureList.SUPPORT_CHECK.forEach(kept::remove);
        RunFeatures economy = new RunFeatures(f.schema(), f.runId(), f.pipeline(), f.question(),
                f.featureListVersion(), kept, f.llm(), f.evidenceFlow(), f.findings());
        return new LabeledRun(new ScoringInput(economy, run.input().present(), run.input().answer()), run.label());
    }

    @Test
    void shouldAttachAnHonestEvaluationOfTheHeldOutTestSplit() {
        EvaluationReport report = BundleReports.evaluation(bundle);
        assertThat(report).isNotNull();
        assertThat(report.runs()).isEqualTo(BundleReports.training(bundle).testRuns());
        assertThat(report.modelBundle()).isEqualTo(bundle.id());
        assertThat(report.raglog().pooled().f1()).isGreaterThan(report.rulesOnly().pooled().f1());
        assertThat(Json.write(report)).contains("\"answer_only\"", "\"rules_only\"", "\"false_positive_rate\"",
                "\"faulty_correct_answer_caught\"");
        assertThat(report.toTable()).contains("raglog", "answer-only", "rules-only", "offline proxy");
    }

    @Test
    void shouldReportInjectedAndNaturalFaultsApartWithTheSoundRuns() {
        // the synthetic runs' faults are all injected: that report is the whole evaluation, and there is no natural one
        assertThat(unseen.raglogByOrigin()).containsOnlyKeys("injected");
        assertThat(unseen.raglogByOrigin().get("injected").pooled()).isEqualTo(unseen.raglog().pooled());
        assertThat(unseen.toTable()).contains("raglog by fault origin", "injected  stage F1");
    }

    @Test
    void shouldGiveTheSameBundleWhenTrainedAgainWithTheSameSeed() {
        List<LabeledRun> runs = SyntheticRuns.generate(300, 5);
        try (ModelBundle first = Trainer.train(runs, Trainer.Settings.defaults("repeat"), TRAINED_AT);
                ModelBundle second = Trainer.train(runs, Trainer.Settings.defaults("repeat"), TRAINED_AT)) {
            assertThat(second.id()).isEqualTo(first.id());
        }
    }

    @Test
    void shouldRefuseTrainingFeaturesFromTwoJudges() {
        List<LabeledRun> runs = new ArrayList<>(SyntheticRuns.generate(60, 7));
        LabeledRun last = runs.remove(runs.size() - 1);
        RunFeatures f = last.input().features();
        RunFeatures otherJudge = new RunFeatures(f.schema(), f.runId(), f.pipeline(), f.question(),
                f.featureListVersion(), f.features(),
                new LlmUsage(5, 900, 80, 0.001, false, List.of(), "openai:gpt-4o-mini"), f.evidenceFlow(),
                f.findings());
        runs.add(new LabeledRun(new ScoringInput(otherJudge, last.input().present(), last.input().answer()),
                last.label()));
        assertThatThrownBy(() -> Trainer.train(runs, Trainer.Settings.defaults("mixed"), TRAINED_AT))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("several judges");
    }

    @Test
    void shouldRefuseAStageWithoutEnoughFaultyRuns() {
        List<LabeledRun> soundOnly = SyntheticRuns.generate(200, 9).stream()
                .filter(r -> !r.label().faulty())
                .toList();
        assertThatThrownBy(() -> Trainer.train(soundOnly, Trainer.Settings.defaults("sound"), TRAINED_AT))
                .hasMessageContaining("faulty")
                .hasMessageContaining(Stage.REWRITE.id());
    }
}
