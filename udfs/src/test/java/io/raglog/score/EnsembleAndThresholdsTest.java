package io.raglog.score;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import io.raglog.schemas.Json;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageVerdict;
import io.raglog.schemas.StageVerdict.ModelProbabilities;
import io.raglog.schemas.Verdict;
import java.io.InputStream;
import java.time.Instant;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;

/** The ensemble's arithmetic and the threshold decision, on models whose outputs are known on paper. */
class EnsembleAndThresholdsTest {

    private static final Instant AT = Instant.parse("2026-11-29T10:00:00Z");

    @Test
    void shouldWeightLogisticRegressionAThirdBoostedTreesAHalfAndExtraTreesASixth() {
        assertThat(Ensemble.combine(new ModelProbabilities(0.6, 0.2, 0.9))).isCloseTo(0.2 + 0.1 + 0.15, within(1e-15));
        assertThat(Ensemble.combine(new ModelProbabilities(1, 0, 0))).isCloseTo(1.0 / 3, within(1e-15));
        assertThat(Ensemble.combine(new ModelProbabilities(0, 1, 0))).isCloseTo(0.5, within(1e-15));
        assertThat(Ensemble.combine(new ModelProbabilities(0, 0, 1))).isCloseTo(1.0 / 6, within(1e-15));
        assertThat(Ensemble.combine(new ModelProbabilities(1, 1, 1))).isCloseTo(1.0, within(1e-15));
    }

    @Test
    void shouldScoreEveryPresentStageAsTheWeightedMeanOfItsThreeModels() {
        try (ModelBundle bundle = FixedBundles.withThresholds(FixedBundles.thresholds(0.5, 0.5, 0.5, 0.5, 0.5))) {
            Verdict verdict = new Scorer(bundle).score(input(1.0, EnumSet.allOf(Stage.class)), AT);
            // a bundle trained before context assembly leaves that stage unscored, even when the run has it
            assertThat(verdict.stages().assemble()).isEqualTo(StageVerdict.absent());
            for (Stage stage : bundle.thresholds().keySet()) {
                StageVerdict s = verdict.stages().get(stage);
                assertThat(s.models().logisticRegression()).isCloseTo(FixedBundles.SIGMOID_ONE, within(1e-15));
                assertThat(s.models().gradientBoostedTrees()).isEqualTo(0.75);
                assertThat(s.models().extraTrees()).isEqualTo(0.9);
                assertThat(s.probability()).isCloseTo(FixedBundles.P_AT_ONE, within(1e-12));
            }
            // below the tree's cut the extra-trees say 0.2 and the logistic regression sigmoid(-1)
            Verdict low = new Scorer(bundle).score(input(0.0, EnumSet.allOf(Stage.class)), AT);
            double expected = (1 - FixedBundles.SIGMOID_ONE) / 3 + 0.75 / 2 + 0.2 / 6;
            assertThat(low.stages().embed().probability()).isCloseTo(expected, within(1e-12));
        }
    }

    @Test
    void shouldFlagAStageExactlyWhenItsProbabilityReachesItsOwnThreshold() {
        double p = FixedBundles.P_AT_ONE;
        try (ModelBundle bundle = FixedBundles.withThresholds(
                FixedBundles.thresholds(p, Math.nextUp(p), 0.0, 1.0, 0.5))) {
            Verdict verdict = new Scorer(bundle).score(input(1.0, EnumSet.allOf(Stage.class)), AT);
            assertThat(verdict.flaggedStages()).containsExactly(Stage.REWRITE, Stage.RETRIEVE, Stage.GENERATE);
            assertThat(verdict.stages().embed().threshold()).isEqualTo(Math.nextUp(p));
            assertThat(verdict.stages().embed().flagged()).isFalse();
            assertThat(verdict.stages().rerank().flagged()).isFalse();
            StageVerdict rewrite = verdict.stages().rewrite();
            assertThat(rewrite.evidence()).isNotEmpty();
            assertThat(rewrite.repairHint()).isNotBlank();
            assertThat(verdict.stages().embed().evidence()).isEmpty();
            assertThat(verdict.stages().embed().repairHint()).isNull();
            assertThat(verdict.reassigned()).isFalse();
        }
    }

    @Test
    void shouldNotScoreAStageTheRunDidNotHave() {
        try (ModelBundle bundle = FixedBundles.withThresholds(FixedBundles.thresholds(0, 0, 0, 0, 0))) {
            Verdict verdict = new Scorer(bundle).score(
                    input(1.0, EnumSet.of(Stage.EMBED, Stage.RETRIEVE, Stage.GENERATE)), AT);
            assertThat(verdict.stages().rewrite()).isEqualTo(StageVerdict.absent());
            assertThat(verdict.stages().rerank()).isEqualTo(StageVerdict.absent());
            assertThat(verdict.flaggedStages()).containsExactly(Stage.EMBED, Stage.RETRIEVE, Stage.GENERATE);
        }
    }

    @Test
    void shouldWriteVerdictsThatValidateAgainstTheVerdictSchema() throws Exception {
        try (ModelBundle bundle = FixedBundles.withThresholds(FixedBundles.thresholds(0.5, 0.9, 0.5, 0.5, 0.9));
                InputStream in = getClass().getResourceAsStream("/schemas/verdict.v4.json")) {
            JsonSchema schema = JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012)
                    .getSchema(Json.MAPPER.readTree(in));
            Verdict verdict = new Scorer(bundle).score(input(1.0, EnumSet.of(Stage.EMBED, Stage.RETRIEVE,
                    Stage.RERANK, Stage.GENERATE)), AT);
            assertThat(schema.validate(Json.MAPPER.valueToTree(verdict))).isEmpty();
            assertThat(verdict.modelBundle()).isEqualTo(bundle.id()).startsWith("fixed@");
            assertThat(verdict.scoredAt()).isEqualTo(AT);
            assertThat(verdict.answer()).isEqualTo("$4.1bn.");
        }
    }

    @Test
    void shouldRefuseFeaturesOfAnotherFeatureList() {
        try (ModelBundle bundle = FixedBundles.withThresholds(FixedBundles.thresholds(0.5, 0.5, 0.5, 0.5, 0.5))) {
            RunFeatures f = FixedBundles.features("run-v2", 1.0, null);
            RunFeatures v2 = new RunFeatures(f.schema(), f.runId(), f.pipeline(), f.question(), "fixed/v2",
                    f.features(), f.llm(), f.evidenceFlow(), f.findings());
            assertThatThrownBy(() -> new Scorer(bundle).score(new ScoringInput(v2, EnumSet.allOf(Stage.class), null), AT))
                    .hasMessageContaining("fixed/v2")
                    .hasMessageContaining("fixed/v1");
        }
    }

    private static ScoringInput input(double x, EnumSet<Stage> present) {
        return new ScoringInput(FixedBundles.features("run-" + x, x, null), present, "$4.1bn.");
    }
}
