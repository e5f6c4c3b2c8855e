package io.raglog.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.schemas.Json;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
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
    void shouldChooseThresholdsWithinTheRunLevelFalsePositiveBudgetOnValidation() {
        TrainingSummary training = bundle.training();
        assertThat(training.validationRunFpr()).isLessThanOrEqualTo(0.05);
        assertThat(training.validationF1()).isGreaterThan(0.8);
        assertThat(training.trainRuns() + training.validationRuns() + training.testRuns()).isEqualTo(1000);
        assertThat(training.judge()).isEqualTo(SyntheticRuns.JUDGE);
        assertThat(training.profiles()).hasSize(3);
        assertThat(bundle.thresholds()).allSatisfy((stage, t) -> assertThat(t).isBetween(0.0, 1.0));
    }

    @Test
    void shouldAttachAnHonestEvaluationOfTheHeldOutTestSplit() {
        EvaluationReport report = bundle.evaluation();
        assertThat(report).isNotNull();
        assertThat(report.runs()).isEqualTo(bundle.training().testRuns());
        assertThat(report.modelBundle()).isEqualTo(bundle.id());
        assertThat(report.raglog().pooled().f1()).isGreaterThan(report.rulesOnly().pooled().f1());
        assertThat(Json.write(report)).contains("\"answer_only\"", "\"rules_only\"", "\"false_positive_rate\"",
                "\"faulty_correct_answer_caught\"");
        assertThat(report.toTable()).contains("raglog", "answer-only", "rules-only", "offline proxy");
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
