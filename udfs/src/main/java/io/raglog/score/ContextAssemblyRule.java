package io.raglog.score;

import static io.raglog.checks.FeatureList.ASSEMBLE_LOST_ANSWER_GAP;
import static io.raglog.checks.FeatureList.ASSEMBLE_LOST_ANSWER_MATCH;
import static io.raglog.checks.FeatureList.GENERATE_REFUSES;

import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.util.Set;

/**
 * A rule like RAGLog's reassignment, one stage later: when the passage holding the answer was handed on to the prompt
 * and context assembly cut or dropped it, assembly is flagged, and a flag on the reranker (which handed it on) or on
 * a generator that rightly said it did not know belongs to assembly instead. Runs after the reassignment rule, so a
 * retrieval flag that rule moved to the reranker moves on here too.
 *
 * <p>"Lost by assembly" is read from the rules: a sentence in the text assembly cut or dropped matches the question
 * at least {@link #LOST_MATCH}, and at least {@link #RULE_GAP} better than the prompt's best (a budget that cuts a weak
 * passage of a sound run does not meet them). Both bounds were chosen on the training split's features (assembly F1
 * of the rule alone there 0.75 at the time, against 0.65 for the judge's evidence flow alone, whose precision was
 * 0.73: the flow is a feature for the model, not a trigger). The rule then flags assembly when assembly's own model
 * gives at least {@link #MODEL_FLOOR}, below the model's threshold: it settles what the model leans towards, not what
 * the model has seen healthy runs do. Once healthy contexts lost as much of what they were handed as faulty ones
 * (budgets that vary from run to run), the bounds alone met sound runs too often, each one a sound run over the
 * run-level budget; the floor, and the other floors tried, are in docs/model-card.md.
 */
public final class ContextAssemblyRule {

    /** How well a lost sentence must match the question. */
    static final double LOST_MATCH = 0.4;
    /** How much better the lost text must answer than the prompt's best. */
    static final double RULE_GAP = 0.05;
    /** The least probability of a fault assembly's model must give for the rule to flag it. */
    public static final double MODEL_FLOOR = 0.35;

    private ContextAssemblyRule() {}

    /** The stages flagged after the rule, and those it cleared in assembly's favour. */
    public record Outcome(Set<Stage> flagged, Set<Stage> cleared) {

        public boolean fired() {
            return !cleared.isEmpty() || flagged.contains(Stage.ASSEMBLE);
        }
    }

    /**
     * The rule on sets of stages: {@link #applyToMask}, the one body of the rule, on their bit masks.
     *
     * @param assemblyProbability assembly's ensemble probability of a fault
     */
    public static Outcome apply(Set<Stage> flaggedBefore, Set<Stage> present, RunFeatures f,
            double assemblyProbability) {
        int before = StageMasks.of(flaggedBefore);
        int after = applyToMask(before, StageMasks.of(present), lostByAssembly(f), refused(f), assemblyProbability);
        // only the reranker's and an abstaining generator's flags are ever taken away, and only when assembly's is set
        return new Outcome(StageMasks.stages(after), StageMasks.stages(before & ~after));
    }

    /**
     * The rule on a bit mask of flagged stages (by ordinal), which the tier gate's search runs millions of times:
     * assembly flagged where it lost the answer ({@link #lostByAssembly}) and its model gives at least
     * {@link #MODEL_FLOOR}, taking over the reranker's flag, and an abstaining generator's.
     *
     * @param refused whether the generator said it did not know (its prompt did not hold the answer)
     */
    public static int applyToMask(int flagged, int presentMask, boolean lost, boolean refused,
            double assemblyProbability) {
        int assemble = 1 << Stage.ASSEMBLE.ordinal();
        if ((presentMask & assemble) == 0 || !lost || assemblyProbability < MODEL_FLOOR) {
            return flagged;
        }
        int out = (flagged | assemble) & ~(1 << Stage.RERANK.ordinal());
        return refused ? out & ~(1 << Stage.GENERATE.ordinal()) : out;
    }

    /** Whether the generator said it did not know, as the rule reads it. */
    public static boolean refused(RunFeatures f) {
        Double refuses = f.feature(GENERATE_REFUSES);
        return refuses != null && refuses >= 1;
    }

    public static boolean lostByAssembly(RunFeatures f) {
        Double lost = f.feature(ASSEMBLE_LOST_ANSWER_MATCH);
        Double gap = f.feature(ASSEMBLE_LOST_ANSWER_GAP);
        return lost != null && gap != null && lost >= LOST_MATCH && gap >= RULE_GAP;
    }
}
