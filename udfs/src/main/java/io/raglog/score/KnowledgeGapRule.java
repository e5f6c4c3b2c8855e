package io.raglog.score;

import static io.raglog.checks.FeatureList.FLOW_MISSING_SHARE;
import static io.raglog.checks.FeatureList.GENERATE_REFUSES;
import static io.raglog.checks.FeatureList.GENERATE_UNSUPPORTED_SHARE;
import static io.raglog.checks.FeatureList.LLM_RETRIEVE_NO_ANSWER;
import static io.raglog.checks.FeatureList.LLM_SUPPORT_UNSUPPORTED;
import static io.raglog.checks.FeatureList.RETRIEVE_UNRETURNED_MATCH_GAIN;

import io.raglog.schemas.EvidenceLocation;
import io.raglog.schemas.EvidencePiece;
import io.raglog.schemas.KnowledgeGap;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Tells a knowledge gap (the question asks what the knowledge base does not hold) from the stage flags, with a rule
 * on features the checks already compute: the answer refused, and the judge gives at least {@link #NO_ANSWER_FROM}
 * confidence that no retrieved or reranked passage answers. Its score is the mean of three signals in [0, 1]: that
 * confidence, the share of needed information the evidence flow found in no passage, and what the answer did (1 for
 * a refusal, else the share of it no passage supports).
 *
 * <p>Chosen on a simulated train-split sample (600 runs, offline judge) among rules on these features, by F1 against
 * the labels' {@code knowledge_gap}. Stricter variants lost recall without gaining precision there: requiring the
 * evidence flow to find the needed information nowhere, the passages to be on the question's words, or an invented
 * answer to count. Not excluded: off-topic passages, since the judge calls most gap runs' passages off topic too. A
 * gradient-boosted head on every feature, the known-passages ones included, did no better in cross-validation on
 * the train split (F1 0.67 against the rule's 0.66): SQuAD's unanswerable questions are written to look answerable
 * from the passage they came from, and a lexical judge cannot tell them apart; a real LLM judge is the lever.
 *
 * <p>When a gap is decided, a retrieval flag is cleared, like the reassignment rule clears one the reranker owns:
 * retrieval cannot return what does not exist, and the gap goes to the content owner instead. Unless a passage the
 * pipeline is known to hold matches the question clearly better than anything retrieved ({@link
 * #BETTER_PASSAGE_KNOWN}): then the answer may well exist, and the flag stands beside the gap.
 */
public final class KnowledgeGapRule {

    /** The judge's confidence (0-100) that no retrieved passage answers, from which a refusal is read as a gap. */
    static final double NO_ANSWER_FROM = 25.0;
    /**
     * How much better than the retrieved passages a known, unreturned passage must match the question for a
     * retrieval flag to stand on a gap (feature {@code retrieve.unreturned_match_gain}). Chosen on the train split's
     * features: at 0.1, 57 % of natural retrieval misses and 83 % of injected ones reach it, 17 % of sound gap runs
     * and 1 % of sound runs do.
     */
    static final double BETTER_PASSAGE_KNOWN = 0.1;

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
        double score = (Math.min(1.0, noAnswer / 100.0) + Math.min(1.0, missing) + (refused ? 1.0 : invented)) / 3.0;
        if (!refused || noAnswer < NO_ANSWER_FROM) {
            return new Outcome(new KnowledgeGap(false, score, List.of(), null, false), after);
        }
        Double gain = features.feature(RETRIEVE_UNRETURNED_MATCH_GAIN);
        boolean betterKnown = gain != null && gain >= BETTER_PASSAGE_KNOWN;
        boolean cleared = !betterKnown && after.remove(Stage.RETRIEVE);
        List<String> needed = nowhere(features);
        String asks = needed.isEmpty() ? shortQuestion(features.question()) : String.join(", ", needed);
        List<String> evidence = new ArrayList<>();
        evidence.add("the question asks for " + asks);
        evidence.add("no retrieved or reranked passage holds it (the judge is "
                + Math.round(noAnswer) + "% confident; " + Math.round(100 * missing) + "% of the needed information"
                + " is in no passage)");
        evidence.add("the answer refused");
        if (cleared) {
            evidence.add("retrieval's flag was cleared: retrieval cannot return what the knowledge base does not hold");
        } else if (betterKnown && after.contains(Stage.RETRIEVE)) {
            evidence.add("retrieval's flag stands: a passage the knowledge base holds matches the question better than"
                    + " any retrieved, so the answer may exist and retrieval missed it");
        }
        String hint = "Add content about " + asks + " to the knowledge base, or tell users it is out of scope.";
        return new Outcome(new KnowledgeGap(true, score, evidence, hint, cleared), after);
    }

    /** The needed pieces the evidence flow found in no passage, quoted. */
    private static List<String> nowhere(RunFeatures f) {
        List<String> out = new ArrayList<>();
        if (f.evidenceFlow() != null && f.evidenceFlow().pieces() != null) {
            for (EvidencePiece p : f.evidenceFlow().pieces()) {
                if (p.location() == EvidenceLocation.NOWHERE) {
                    out.add("'" + p.piece() + "'");
                }
            }
        }
        return out;
    }

    /** The larger of the judge's unsupported-statement share and the rule check's unsupported-term share. */
    private static double invented(RunFeatures f) {
        Double llm = f.feature(LLM_SUPPORT_UNSUPPORTED);
        Double terms = f.feature(GENERATE_UNSUPPORTED_SHARE);
        return Math.max(llm == null ? 0 : llm, terms == null ? 0 : terms);
    }

    private static String shortQuestion(String question) {
        if (question == null || question.isBlank()) {
            return "what the question asks";
        }
        String q = question.strip();
        return "'" + (q.length() > 120 ? q.substring(0, 117) + "..." : q) + "'";
    }
}
