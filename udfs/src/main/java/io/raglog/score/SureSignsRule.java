package io.raglog.score;

import static io.raglog.checks.FeatureList.GENERATE_SWAPPED_IN_PLACE;
import static io.raglog.checks.FeatureList.REWRITE_OPPOSITE_IN_PLACE;

import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.util.Set;

/**
 * Signs that, on the training split, only a faulty stage ever showed, and that leave the rest of the stage looking
 * sound: the stage is flagged whatever its model says. The models learn from the few such stages a training sample
 * holds that a stage this close to its input is sound, so their probability is their blind spot here, not a second
 * opinion, and there is no floor on it (unlike the assembly and answer-kind rules).
 *
 * <ul>
 *   <li>A rewrite that writes a question word's opposite where the word stood asks another question: "the last
 *       response" for "the first", "before 2007" for "after 2007", "fewer" for "more" ({@code
 *       rewrite.opposite_in_place}, {@link io.raglog.checks.InPlaceSubstitutions}, WordNet's antonyms). Every run of
 *       the training split's 4,000 with one had a faulty rewrite (11 of 11), and the bundle trained before the feature
 *       gave most of the development samples' ones a probability under 0.1.
 *   <li>An answer that writes another name or number where the context sentence it copies has one states what its
 *       context does not say: "from 2 August 1915" for "from 4 August 1915" ({@code generate.swapped_in_place},
 *       {@code SwappedFacts}). On the training split's 4,000 runs, 8 answers had one, all 8 faulty; none of its 2,976
 *       sound answers did. The answer's other words are its context's, word for word.
 * </ul>
 */
public final class SureSignsRule {

    private static final int REWRITE = 1 << Stage.REWRITE.ordinal();
    private static final int GENERATE = 1 << Stage.GENERATE.ordinal();

    private SureSignsRule() {}

    /** The stages flagged, with every present stage that shows a sure sign added. */
    public static Set<Stage> apply(Set<Stage> flagged, Set<Stage> present, RunFeatures features) {
        int before = StageMasks.of(flagged);
        int after = applyToMask(before, StageMasks.of(present), signs(features));
        return after == before ? flagged : StageMasks.stages(after);
    }

    /** The rule on bit masks of stages (by ordinal), as the tier gate's search runs it. */
    public static int applyToMask(int flagged, int presentMask, int signs) {
        return flagged | (signs & presentMask);
    }

    /** The stages with a sure sign in the run's features, as a mask. */
    public static int signs(RunFeatures features) {
        return (atLeastOne(features, REWRITE_OPPOSITE_IN_PLACE) ? REWRITE : 0)
                | (atLeastOne(features, GENERATE_SWAPPED_IN_PLACE) ? GENERATE : 0);
    }

    private static boolean atLeastOne(RunFeatures features, String name) {
        Double count = features.feature(name);
        return count != null && count >= 1;
    }
}
