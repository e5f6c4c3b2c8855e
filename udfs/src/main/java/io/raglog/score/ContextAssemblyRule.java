package io.raglog.score;

import static io.raglog.checks.FeatureList.ASSEMBLE_FLOW_LOST;
import static io.raglog.checks.FeatureList.ASSEMBLE_LOST_ANSWER_GAP;
import static io.raglog.checks.FeatureList.ASSEMBLE_LOST_ANSWER_MATCH;
import static io.raglog.checks.FeatureList.GENERATE_REFUSES;

import io.raglog.checks.AnswerSentences;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.util.EnumSet;
import java.util.Set;

/**
 * A rule like RAGLog's reassignment, one stage later: when the passage holding the answer was handed on to the prompt
 * and context assembly cut or dropped it, a flag on the reranker (which handed it on) or on a generator that
 * rightly said it did not know belongs to assembly. Runs after the reassignment rule, so a retrieval flag that rule
 * moved to the reranker moves on here too.
 *
 * <p>"Lost by assembly" needs the judge (a needed piece found only in a passage assembly cut or dropped) or the rules
 * (a sentence answering the question in the lost text, and nothing as good in the prompt), and some stage flagged:
 * a budget that cuts a weak passage of a sound run changes nothing.
 */
public final class ContextAssemblyRule {

    /** How much better the lost text must answer than the prompt's best, by the rules alone. */
    static final double RULE_GAP = 0.1;

    private ContextAssemblyRule() {}

    /** The stages flagged after the rule, and those it cleared in assembly's favour. */
    public record Outcome(Set<Stage> flagged, Set<Stage> cleared) {

        public boolean fired() {
            return !cleared.isEmpty() || flagged.contains(Stage.ASSEMBLE);
        }
    }

    public static Outcome apply(Set<Stage> flaggedBefore, Set<Stage> present, RunFeatures f) {
        Set<Stage> flagged = flaggedBefore.isEmpty() ? EnumSet.noneOf(Stage.class) : EnumSet.copyOf(flaggedBefore);
        Set<Stage> cleared = EnumSet.noneOf(Stage.class);
        if (!present.contains(Stage.ASSEMBLE) || flagged.isEmpty() || !lostByAssembly(f)) {
            return new Outcome(flagged, cleared);
        }
        flagged.add(Stage.ASSEMBLE);
        if (flagged.remove(Stage.RERANK)) {
            cleared.add(Stage.RERANK);
        }
        Double refuses = f.feature(GENERATE_REFUSES);
        if (refuses != null && refuses >= 1 && flagged.remove(Stage.GENERATE)) {
            cleared.add(Stage.GENERATE); // it said it did not know, and its prompt did not hold the answer
        }
        return new Outcome(flagged, cleared);
    }

    static boolean lostByAssembly(RunFeatures f) {
        Double flow = f.feature(ASSEMBLE_FLOW_LOST);
        if (flow != null && flow > 0) {
            return true;
        }
        Double lost = f.feature(ASSEMBLE_LOST_ANSWER_MATCH);
        Double gap = f.feature(ASSEMBLE_LOST_ANSWER_GAP);
        return lost != null && gap != null && lost >= AnswerSentences.ANSWERS && gap >= RULE_GAP;
    }
}
