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

/** A rewrite that wrote a question word's opposite where it stood is flagged, in the job and in a skipped run alike. */
class OppositeRewriteRuleTest {

    private static final Set<Stage> ALL = EnumSet.allOf(Stage.class);

    private static RunFeatures opposites(double count) {
        return FixedBundles.namedFeatures(Map.of(FeatureList.REWRITE_OPPOSITE_IN_PLACE, count));
    }

    @Test
    void anOppositeWrittenInPlaceFlagsTheRewriteBesideWhatIsAlreadyFlagged() {
        assertThat(OppositeRewriteRule.apply(EnumSet.of(Stage.RETRIEVE), ALL, opposites(1)))
                .containsExactlyInAnyOrder(Stage.RETRIEVE, Stage.REWRITE);
    }

    @Test
    void noOppositeOrAnUnreadFeatureLeavesTheFlagsAlone() {
        assertThat(OppositeRewriteRule.apply(EnumSet.of(Stage.RETRIEVE), ALL, opposites(0)))
                .containsExactly(Stage.RETRIEVE);
        RunFeatures unread = FixedBundles.namedFeatures(Map.of(FeatureList.RETRIEVE_TOP_SIM, 0.5));
        assertThat(OppositeRewriteRule.apply(EnumSet.noneOf(Stage.class), ALL, unread)).isEmpty();
    }

    @Test
    void aRunWithoutARewriteIsNotGivenOne() {
        Set<Stage> noRewrite = EnumSet.of(Stage.EMBED, Stage.RETRIEVE, Stage.GENERATE);
        assertThat(OppositeRewriteRule.apply(EnumSet.noneOf(Stage.class), noRewrite, opposites(2))).isEmpty();
        int rewrite = 1 << Stage.REWRITE.ordinal();
        int all = (1 << Stage.values().length) - 1;
        assertThat(OppositeRewriteRule.applyToMask(0, all & ~rewrite, true)).isZero();
        assertThat(OppositeRewriteRule.applyToMask(0, all, true)).isEqualTo(rewrite);
        assertThat(OppositeRewriteRule.applyToMask(0, all, false)).isZero();
    }

    @Test
    void theJobsDecisionsFlagTheRewriteItsModelSawAsSound() {
        Map<Stage, Double> probability = new EnumMap<>(Stage.class);
        Map<Stage, Double> thresholds = new EnumMap<>(Stage.class);
        for (Stage stage : Stage.values()) {
            probability.put(stage, 0.02);
            thresholds.put(stage, 0.8);
        }
        assertThat(Scorer.decide(probability, thresholds, ALL, opposites(1)).flagged()).containsExactly(Stage.REWRITE);
        assertThat(Scorer.decide(probability, thresholds, ALL, opposites(0)).flagged()).isEmpty();
        assertThat(Scorer.decideSkipped(probability, thresholds, ALL, opposites(1)).flagged())
                .containsExactly(Stage.REWRITE);
    }
}
