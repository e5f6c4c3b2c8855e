package io.raglog.score;

import static io.raglog.checks.FeatureList.GENERATE_WRONG_KIND;

import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.util.Set;

/**
 * An answer of another kind than the question asks for is the generator's fault, whatever its context held: asked
 * "how many", "when" or "how long", it answered with no number and no word of time ("It was Watt's." to "About what
 * year was the atmospheric engine invented?"). Had the context held the answer, the generator missed it; had it not,
 * the generator should have said it did not know. Either way the generator is flagged, even where its model, which has
 * seen few such answers, leans less far ({@code generate.answer_not_the_kind_asked}; refusals are never read, the
 * question must open with the word that asks, {@link io.raglog.checks.AnswerType#asked}).
 *
 * <p>Measured before it was made a rule, on the offline judge's features: every run the feature marked had a faulty
 * generator, in the training split (37 of 37) and in the held-out and unseen-profile samples (17 of 17, 1 of 1), while
 * the shipped models left 4 of those 17 below generation's threshold. Like the context-assembly rule it settles what
 * generation's model leans towards ({@link #MODEL_FLOOR}) rather than overrule it: on another team's traffic, or with
 * another judge, a word list may mark sound answers, and a bundle trained there must be able to say so.
 */
public final class AnswerKindRule {

    /** The least probability of a fault generation's model must give for the rule to flag it: the assembly rule's. */
    public static final double MODEL_FLOOR = ContextAssemblyRule.MODEL_FLOOR;

    private AnswerKindRule() {}

    /**
     * The rule on sets of stages: {@link #applyToMask}, the one body of the rule, on their bit masks. The stages
     * flagged, with generation added when its answer is not the kind its question asks for.
     *
     * @param generateProbability generation's ensemble probability of a fault
     */
    public static Set<Stage> apply(Set<Stage> flagged, Set<Stage> present, RunFeatures features,
            double generateProbability) {
        int before = StageMasks.of(flagged);
        int after = applyToMask(before, StageMasks.of(present), wrongKind(features), generateProbability);
        return after == before ? flagged : StageMasks.stages(after);
    }

    /** The rule on a bit mask of flagged stages (by ordinal), as the tier gate's search runs it. */
    public static int applyToMask(int flagged, int presentMask, boolean wrongKind, double generateProbability) {
        int generate = 1 << Stage.GENERATE.ordinal();
        return wrongKind && (presentMask & generate) != 0 && generateProbability >= MODEL_FLOOR ? flagged | generate
                : flagged;
    }

    /** Whether the answer is not the kind its question asks for, as the rule reads it. */
    public static boolean wrongKind(RunFeatures features) {
        Double wrongKind = features.feature(GENERATE_WRONG_KIND);
        return wrongKind != null && wrongKind >= 1;
    }
}
