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

/**
 * A rewrite that wrote a question word's opposite where it stood, and an answer that wrote another name or number in
 * the sentence it copies, are flagged, in the job and in a skipped run alike.
 */
class SureSignsRuleTest {

    private static final Set<Stage> ALL = EnumSet.allOf(Stage.class);
    private static final int REWRITE = 1 << Stage.REWRITE.ordinal();
    private static final int GENERATE = 1 << Stage.GENERATE.ordinal();
    private static final int EVERY_STAGE = (1 << Stage.values().length) - 1;

    private static RunFeatures opposites(double count) {
        return FixedBundles.namedFeatures(Map.of(FeatureList.REWRITE_OPPOSITE_IN_PLACE, count));
    }

    private static RunFeatures swaps(double count) {
        return FixedBundles.namedFeatures(Map.of(FeatureList.GENERATE_SWAPPED_IN_PLACE, count));
    }

    @Test
    void eachSignFlagsItsStageBesideWhatIsAlreadyFlagged() {
        assertThat(SureSignsRule.apply(EnumSet.of(Stage.RETRIEVE), ALL, opposites(1)))
                .containsExactlyInAnyOrder(Stage.RETRIEVE, Stage.REWRITE);
        assertThat(SureSignsRule.apply(EnumSet.of(Stage.RETRIEVE), ALL, swaps(2)))
                .containsExactlyInAnyOrder(Stage.RETRIEVE, Stage.GENERATE);
        RunFeatures both = FixedBundles.namedFeatures(Map.of(FeatureList.REWRITE_OPPOSITE_IN_PLACE, 1.0,
                FeatureList.GENERATE_SWAPPED_IN_PLACE, 1.0));
        assertThat(SureSignsRule.signs(both)).isEqualTo(REWRITE | GENERATE);
    }

    @Test
    void noSignOrAnUnreadFeatureLeavesTheFlagsAlone() {
        assertThat(SureSignsRule.apply(EnumSet.of(Stage.RETRIEVE), ALL, opposites(0)))
                .containsExactly(Stage.RETRIEVE);
        assertThat(SureSignsRule.apply(EnumSet.of(Stage.RETRIEVE), ALL, swaps(0))).containsExactly(Stage.RETRIEVE);
        RunFeatures unread = FixedBundles.namedFeatures(Map.of(FeatureList.RETRIEVE_TOP_SIM, 0.5));
        assertThat(SureSignsRule.apply(EnumSet.noneOf(Stage.class), ALL, unread)).isEmpty();
    }

    @Test
    void aStageTheRunDoesNotHaveIsNotGivenOne() {
        Set<Stage> noRewrite = EnumSet.of(Stage.EMBED, Stage.RETRIEVE, Stage.GENERATE);
        assertThat(SureSignsRule.apply(EnumSet.noneOf(Stage.class), noRewrite, opposites(2))).isEmpty();
        assertThat(SureSignsRule.applyToMask(0, EVERY_STAGE & ~REWRITE, REWRITE)).isZero();
        assertThat(SureSignsRule.applyToMask(0, EVERY_STAGE, REWRITE)).isEqualTo(REWRITE);
        assertThat(SureSignsRule.applyToMask(0, EVERY_STAGE & ~GENERATE, REWRITE | GENERATE)).isEqualTo(REWRITE);
        assertThat(SureSignsRule.applyToMask(0, EVERY_STAGE, 0)).isZero();
    }

    @Test
    void theJobsDecisionsFlagTheStageItsModelSawAsSound() {
        Map<Stage, Double> probability = new EnumMap<>(Stage.class);
        Map<Stage, Double> thresholds = new EnumMap<>(Stage.class);
        for (Stage stage : Stage.values()) {
            probability.put(stage, 0.02);
            thresholds.put(stage, 0.8);
        }
        assertThat(Scorer.decide(probability, thresholds, ALL, opposites(1)).flagged()).containsExactly(Stage.REWRITE);
        assertThat(Scorer.decide(probability, thresholds, ALL, swaps(1)).flagged()).containsExactly(Stage.GENERATE);
        assertThat(Scorer.decide(probability, thresholds, ALL, opposites(0)).flagged()).isEmpty();
        assertThat(Scorer.decideSkipped(probability, thresholds, ALL, opposites(1)).flagged())
                .containsExactly(Stage.REWRITE);
        assertThat(Scorer.decideSkipped(probability, thresholds, ALL, swaps(1)).flagged())
                .containsExactly(Stage.GENERATE);
    }
}
