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

/** An answer of another kind than its question asks for flags the generator its model leans towards faulting. */
class AnswerKindRuleTest {

    private static final Set<Stage> ALL = EnumSet.allOf(Stage.class);
    /** Generation's model below its threshold, above the rule's floor. */
    private static final double ABOVE_FLOOR = 0.45;

    private static RunFeatures wrongKind(double value) {
        return FixedBundles.namedFeatures(Map.of(FeatureList.GENERATE_WRONG_KIND, value));
    }

    @Test
    void anAnswerOfAnotherKindFlagsTheGeneratorBesideWhatIsAlreadyFlagged() {
        assertThat(AnswerKindRule.apply(EnumSet.of(Stage.RERANK), ALL, wrongKind(1.0), ABOVE_FLOOR))
                .containsExactlyInAnyOrder(Stage.RERANK, Stage.GENERATE);
    }

    @Test
    void anAnswerOfTheKindAskedOrAQuestionThatDoesNotSayLeavesTheFlagsAlone() {
        assertThat(AnswerKindRule.apply(EnumSet.of(Stage.RERANK), ALL, wrongKind(0.0), ABOVE_FLOOR))
                .containsExactly(Stage.RERANK);
        RunFeatures unread = FixedBundles.namedFeatures(Map.of(FeatureList.RETRIEVE_TOP_SIM, 0.5));
        assertThat(AnswerKindRule.apply(EnumSet.noneOf(Stage.class), ALL, unread, ABOVE_FLOOR)).isEmpty();
    }

    @Test
    void aGeneratorItsModelSeesAsSoundIsLeftAlone() {
        assertThat(AnswerKindRule.apply(EnumSet.noneOf(Stage.class), ALL, wrongKind(1.0),
                AnswerKindRule.MODEL_FLOOR - 0.01)).isEmpty();
    }

    @Test
    void aRunWithoutAGeneratorIsNotGivenOne() {
        Set<Stage> noGenerator = EnumSet.of(Stage.EMBED, Stage.RETRIEVE);
        assertThat(AnswerKindRule.apply(EnumSet.noneOf(Stage.class), noGenerator, wrongKind(1.0), ABOVE_FLOOR))
                .isEmpty();
        assertThat(AnswerKindRule.applyToMask(0, 1 << Stage.RETRIEVE.ordinal(), true, ABOVE_FLOOR)).isZero();
    }

    @Test
    void theMaskFormTheTierSearchRunsDecidesAsTheSetForm() {
        int generate = 1 << Stage.GENERATE.ordinal();
        int rerank = 1 << Stage.RERANK.ordinal();
        int all = (1 << Stage.values().length) - 1;
        assertThat(AnswerKindRule.applyToMask(rerank, all, true, ABOVE_FLOOR)).isEqualTo(rerank | generate);
        assertThat(AnswerKindRule.applyToMask(rerank, all, false, ABOVE_FLOOR)).isEqualTo(rerank);
        assertThat(AnswerKindRule.applyToMask(rerank, all, true, AnswerKindRule.MODEL_FLOOR - 0.01))
                .isEqualTo(rerank);
    }

    @Test
    void theJobsDecisionFlagsTheGeneratorItsModelLeftBelowItsThreshold() {
        Map<Stage, Double> probability = new EnumMap<>(Stage.class);
        Map<Stage, Double> thresholds = new EnumMap<>(Stage.class);
        for (Stage stage : Stage.values()) {
            probability.put(stage, 0.1);
            thresholds.put(stage, 0.8);
        }
        probability.put(Stage.GENERATE, ABOVE_FLOOR);

        Scorer.Decision decision = Scorer.decide(probability, thresholds, ALL, wrongKind(1.0));

        assertThat(decision.flagged()).containsExactly(Stage.GENERATE);
        assertThat(Scorer.decide(probability, thresholds, ALL, wrongKind(0.0)).flagged()).isEmpty();
    }
}
