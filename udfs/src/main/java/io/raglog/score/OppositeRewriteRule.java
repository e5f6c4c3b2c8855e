package io.raglog.score;

import static io.raglog.checks.FeatureList.REWRITE_OPPOSITE_IN_PLACE;

import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.util.Set;

/**
 * A rewrite that writes a question word's opposite where the word stood asks another question: "the last response"
 * for "the first", "before 2007" for "after 2007", "fewer" for "more" ({@code rewrite.opposite_in_place},
 * {@link io.raglog.checks.InPlaceSubstitutions}, WordNet's antonyms). The rewrite is flagged whatever its model says:
 * the rest of such a rewrite is the question word for word, so every other feature reads it as sound, and the models
 * learn from the few the training sample holds that a rewrite this close to its question is sound.
 *
 * <p>Measured before it was made a rule, on the training split's 4,000 simulated runs: every run with an opposite
 * written in place had a faulty rewrite (11 of 11), and the bundle trained before the feature gave most of the ones in
 * the development samples a probability under 0.1. No floor on the model's probability, unlike the assembly and
 * answer-kind rules: that probability is the model's blind spot here, not a second opinion.
 */
public final class OppositeRewriteRule {

    private OppositeRewriteRule() {}

    /** The stages flagged, with the rewrite added when it wrote a question word's opposite in place. */
    public static Set<Stage> apply(Set<Stage> flagged, Set<Stage> present, RunFeatures features) {
        int before = StageMasks.of(flagged);
        int after = applyToMask(before, StageMasks.of(present), writesAnOpposite(features));
        return after == before ? flagged : StageMasks.stages(after);
    }

    /** The rule on a bit mask of flagged stages (by ordinal), as the tier gate's search runs it. */
    public static int applyToMask(int flagged, int presentMask, boolean writesAnOpposite) {
        int rewrite = 1 << Stage.REWRITE.ordinal();
        return writesAnOpposite && (presentMask & rewrite) != 0 ? flagged | rewrite : flagged;
    }

    /** Whether the run's rewrite wrote the opposite of a question word where the word stood. */
    public static boolean writesAnOpposite(RunFeatures features) {
        Double opposites = features.feature(REWRITE_OPPOSITE_IN_PLACE);
        return opposites != null && opposites >= 1;
    }
}
