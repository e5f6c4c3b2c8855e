package io.raglog.score;

import static io.raglog.checks.FeatureList.FLOW_MISSING_SHARE;
import static io.raglog.checks.FeatureList.GENERATE_REFUSES;
import static io.raglog.checks.FeatureList.GENERATE_UNSUPPORTED_SHARE;
import static io.raglog.checks.FeatureList.LLM_RETRIEVE_NO_ANSWER;
import static io.raglog.checks.FeatureList.LLM_RETRIEVE_OFF_TOPIC;
import static io.raglog.checks.FeatureList.LLM_SUPPORT_UNSUPPORTED;

import io.raglog.schemas.EvidenceLocation;
import io.raglog.schemas.KnowledgeGap;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Tells a knowledge gap (the question asks what the knowledge base does not hold) from the stage flags, with a rule
 * on features the checks already compute: the judge is confident no retrieved or reranked passage answers, the
 * evidence flow finds the needed information nowhere, and the answer refused or rests on nothing in its context.
 * Its score is the mean of those three signals, each in [0, 1]; a gap is decided when all three agree and the
 * passages are on the question's subject (off-topic passages are a retrieval fault, not a gap). Its bounds were
 * measured on a simulated test-split sample (see the job README's knowledge-gap section for the figures).
 *
 * <p>When a gap is decided, a retrieval flag that rests only on "no passage answers" is cleared, like the
 * reassignment rule clears one the reranker owns: retrieval cannot return what does not exist.
 */
public final class KnowledgeGapRule {

    /** The judge's confidence (0-100) that no retrieved passage answers, from which it counts. */
    static final double NO_ANSWER_FROM = 50.0;
    /** Share of the needed pieces the evidence flow found in no passage, from which they count as nowhere. */
    static final double MISSING_FROM = 0.5;
    /** Share of the answer's statements or terms unsupported by the context, from which it counts as invented. */
    static final double INVENTED_FROM = 0.5;

    private KnowledgeGapRule() {}

    /** The gap decision and the stages flagged after it. */
    public record Outcome(KnowledgeGap gap, Set<Stage> flagged) {}

    public static Outcome apply(Set<Stage> flagged, RunFeatures features) {
        Set<Stage> after = flagged.isEmpty() ? EnumSet.noneOf(Stage.class) : EnumSet.copyOf(flagged);
        Double noAnswer = features.feature(LLM_RETRIEVE_NO_ANSWER);
        Double missing = features.feature(FLOW_MISSING_SHARE);
        if (noAnswer == null || missing == null) {
            // the judge's checks did not run (tier-skipped, economy or degraded): nothing to decide on
            return new Outcome(KnowledgeGap.undecided(), after);
        }
        boolean refused = Evidence.count(features, GENERATE_REFUSES) > 0;
        double invented = invented(features);
        double answerSignal = refused ? 1.0 : invented;
        double score = (Math.min(1.0, noAnswer / 100.0) + Math.min(1.0, missing) + answerSignal) / 3.0;
        boolean offTopic = value(features, LLM_RETRIEVE_OFF_TOPIC) >= NO_ANSWER_FROM;
        boolean gap = noAnswer >= NO_ANSWER_FROM && missing >= MISSING_FROM
                && (refused || invented >= INVENTED_FROM) && !offTopic;
        if (!gap) {
            return new Outcome(new KnowledgeGap(false, score, List.of(), null, false), after);
        }
        boolean cleared = after.remove(Stage.RETRIEVE);
        List<String> needed = Evidence.pieces(features, EvidenceLocation.NOWHERE);
        String asks = needed.isEmpty() ? shortQuestion(features.question()) : String.join(", ", needed);
        List<String> evidence = new ArrayList<>();
        evidence.add("the question asks for " + asks);
        evidence.add("no retrieved or reranked passage holds it (the judge is "
                + Math.round(noAnswer) + "% confident; " + Math.round(100 * missing) + "% of the needed information"
                + " is in no passage)");
        evidence.add(refused ? "the answer refused" : "the answer invented it: "
                + Math.round(100 * invented) + "% of what it says is in no passage");
        if (cleared) {
            evidence.add("retrieval's flag rested only on 'no passage answers' and was cleared");
        }
        String hint = "Add content about " + asks + " to the knowledge base, or tell users it is out of scope"
                + (refused ? "." : "; the answer was made up without it, so make the generator abstain when the"
                        + " context does not say.");
        return new Outcome(new KnowledgeGap(true, score, evidence, hint, cleared), after);
    }

    /** The larger of the judge's unsupported-statement share and the rule check's unsupported-term share. */
    private static double invented(RunFeatures f) {
        Double llm = f.feature(LLM_SUPPORT_UNSUPPORTED);
        Double terms = f.feature(GENERATE_UNSUPPORTED_SHARE);
        return Math.max(llm == null ? 0 : llm, terms == null ? 0 : terms);
    }

    private static double value(RunFeatures f, String feature) {
        Double v = f.feature(feature);
        return v == null ? 0 : v;
    }

    private static String shortQuestion(String question) {
        if (question == null || question.isBlank()) {
            return "what the question asks";
        }
        String q = question.strip();
        return "'" + (q.length() > 120 ? q.substring(0, 117) + "..." : q) + "'";
    }
}
