package io.raglog.score;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.FeatureList;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** An answer of another kind than its question asks for flags the generator, whatever its model says. */
class AnswerKindRuleTest {

    private static final Set<Stage> ALL = EnumSet.allOf(Stage.class);

    private static RunFeatures wrongKind(double value) {
        return FixedBundles.namedFeatures(Map.of(FeatureList.GENERATE_WRONG_KIND, value));
    }

    @Test
    void anAnswerOfAnotherKindFlagsTheGeneratorBesideWhatIsAlreadyFlagged() {
        assertThat(AnswerKindRule.apply(EnumSet.of(Stage.RERANK), ALL, wrongKind(1.0)))
                .containsExactlyInAnyOrder(Stage.RERANK, Stage.GENERATE);
    }

    @Test
    void anAnswerOfTheKindAskedOrAQuestionThatDoesNotSayLeavesTheFlagsAlone() {
        assertThat(AnswerKindRule.apply(EnumSet.of(Stage.RERANK), ALL, wrongKind(0.0))).containsExactly(Stage.RERANK);
        RunFeatures unread = FixedBundles.namedFeatures(Map.of(FeatureList.RETRIEVE_TOP_SIM, 0.5));
        assertThat(AnswerKindRule.apply(EnumSet.noneOf(Stage.class), ALL, unread)).isEmpty();
    }

    @Test
    void aRunWithoutAGeneratorIsNotGivenOne() {
        Set<Stage> noGenerator = EnumSet.of(Stage.EMBED, Stage.RETRIEVE);
        assertThat(AnswerKindRule.apply(EnumSet.noneOf(Stage.class), noGenerator, wrongKind(1.0))).isEmpty();
        assertThat(AnswerKindRule.applyToMask(0, 1 << Stage.RETRIEVE.ordinal(), true)).isZero();
    }

    @Test
    void theMaskFormTheTierSearchRunsDecidesAsTheSetForm() {
        int generate = 1 << Stage.GENERATE.ordinal();
        int rerank = 1 << Stage.RERANK.ordinal();
        int all = (1 << Stage.values().length) - 1;
        assertThat(AnswerKindRule.applyToMask(rerank, all, true)).isEqualTo(rerank | generate);
        assertThat(AnswerKindRule.applyToMask(rerank, all, false)).isEqualTo(rerank);
    }

    @Test
    void theJobsDecisionFlagsTheGeneratorItsModelLeftBelowItsThreshold() {
        Map<Stage, Double> probability = new EnumMap<>(Stage.class);
        Map<Stage, Double> thresholds = new EnumMap<>(Stage.class);
        for (Stage stage : Stage.values()) {
            probability.put(stage, 0.1);
            thresholds.put(stage, 0.8);
        }
        probability.put(Stage.GENERATE, 0.45);

        Scorer.Decision decision = Scorer.decide(probability, thresholds, ALL, wrongKind(1.0));

        assertThat(decision.flagged()).containsExactly(Stage.GENERATE);
        assertThat(Scorer.decide(probability, thresholds, ALL, wrongKind(0.0)).flagged()).isEmpty();
    }
}
