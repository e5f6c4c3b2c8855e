package io.raglog.score;

import static io.raglog.checks.FeatureList.EMBED_LOST_KEY_TERMS;
import static io.raglog.checks.FeatureList.EMBED_NEAR_MISS_WORDS;
import static io.raglog.checks.FeatureList.EMBED_SIM_SOURCE;
import static io.raglog.checks.FeatureList.EMBED_TRUNCATED;
import static io.raglog.checks.FeatureList.GENERATE_UNSUPPORTED_NAMES;
import static io.raglog.checks.FeatureList.GENERATE_UNSUPPORTED_NUMBERS;
import static io.raglog.checks.FeatureList.LLM_RERANK_ANSWER_DROPPED;
import static io.raglog.checks.FeatureList.LLM_RETRIEVE_NO_ANSWER;
import static io.raglog.checks.FeatureList.LLM_RETRIEVE_OFF_TOPIC;
import static io.raglog.checks.FeatureList.LLM_RETRIEVE_PARTIAL;
import static io.raglog.checks.FeatureList.LLM_REWRITE_CHANGED;
import static io.raglog.checks.FeatureList.LLM_REWRITE_DROPPED;
import static io.raglog.checks.FeatureList.LLM_SUPPORT_CONTRADICTED;
import static io.raglog.checks.FeatureList.LLM_SUPPORT_STATEMENTS;
import static io.raglog.checks.FeatureList.LLM_SUPPORT_UNSUPPORTED;
import static io.raglog.checks.FeatureList.RERANK_CUT_MOST_SIMILAR;
import static io.raglog.checks.FeatureList.RERANK_INPUT_COUNT;
import static io.raglog.checks.FeatureList.RERANK_OUTPUT_COUNT;
import static io.raglog.checks.FeatureList.RETRIEVE_KEY_TERMS_MISSING;
import static io.raglog.checks.FeatureList.RETRIEVE_MOST_SIMILAR_RANK;
import static io.raglog.checks.FeatureList.RETRIEVE_PASSAGE_COUNT;
import static io.raglog.checks.FeatureList.RETRIEVE_TOP_SIM;
import static io.raglog.checks.FeatureList.REWRITE_LOST_DATES;
import static io.raglog.checks.FeatureList.REWRITE_LOST_NAMES;
import static io.raglog.checks.FeatureList.REWRITE_LOST_NUMBERS;

import io.raglog.schemas.AnswerUse;
import io.raglog.schemas.EvidenceLocation;
import io.raglog.schemas.EvidencePiece;
import io.raglog.schemas.Finding;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The sentences a flagged stage carries: first the checks' own findings about that stage (they quote the run:
 * "rewrite dropped the date '2023'"), then sentences built from the features and the evidence flow ("2 of 5
 * statements are not supported by the context"), at most {@link #MAX_SENTENCES}. A flag is never left bare: when no
 * check stands out, the sentence says the decision came from the combination of signals.
 */
public final class Evidence {

    /** A person reads these in a queue: a handful, most specific first. */
    public static final int MAX_SENTENCES = 4;

    /** LLM confidences (0-100) at or above this are worth quoting. */
    static final double CONFIDENT = 50.0;

    private Evidence() {}

    public static List<String> forStage(Stage stage, RunFeatures features, double probability, double threshold) {
        Set<String> sentences = new LinkedHashSet<>();
        if (features.findings() != null) {
            for (Finding finding : features.findings()) {
                if (finding.stage() == stage && finding.text() != null && !finding.text().isBlank()) {
                    sentences.add(finding.text());
                }
            }
        }
        sentences.addAll(derived(stage, features));
        List<String> out = new ArrayList<>(sentences);
        if (out.isEmpty()) {
            out.add(String.format(Locale.ROOT,
                    "fault probability %.2f is above the %s threshold %.2f: no single check stands out, the "
                            + "combination of signals does", probability, stage.id(), threshold));
        }
        return List.copyOf(out.subList(0, Math.min(MAX_SENTENCES, out.size())));
    }

    /** The sentence the reassignment rule adds to the retrieval stage it cleared. */
    public static String clearedByReassignment(RunFeatures features) {
        List<String> pieces = pieces(features, EvidenceLocation.ONLY_DROPPED);
        return "retrieval found " + (pieces.isEmpty() ? "the needed information" : String.join(", ", pieces))
                + ", the reranker dropped it: the fault was moved to the reranker";
    }

    private static List<String> derived(Stage stage, RunFeatures f) {
        List<String> out = new ArrayList<>();
        switch (stage) {
            case REWRITE -> {
                int lost = count(f, REWRITE_LOST_NAMES) + count(f, REWRITE_LOST_NUMBERS) + count(f, REWRITE_LOST_DATES);
                if (lost > 0) {
                    out.add("the rewrite lost " + plural(lost, "name, number or date", "names, numbers or dates")
                            + " of the question");
                }
                confident(out, f, LLM_REWRITE_DROPPED, "the rewrite dropped a constraint of the question");
                confident(out, f, LLM_REWRITE_CHANGED, "the rewrite asks a different question");
            }
            case EMBED -> {
                if (count(f, EMBED_TRUNCATED) > 0) {
                    out.add("the text sent for embedding is a cut-off prefix of the query");
                }
                int lost = count(f, EMBED_LOST_KEY_TERMS);
                if (lost > 0) {
                    out.add("the text sent for embedding lost " + plural(lost, "key term", "key terms")
                            + " of the query it should embed");
                }
                int near = count(f, EMBED_NEAR_MISS_WORDS);
                if (near > 0) {
                    out.add(plural(near, "embedded word is", "embedded words are") + " one or two edits off the query");
                }
                Double sim = f.feature(EMBED_SIM_SOURCE);
                if (out.isEmpty() && sim != null) {
                    out.add(String.format(Locale.ROOT,
                            "the embedded text is only %.2f similar to the query it should embed", sim));
                }
            }
            case RETRIEVE -> {
                List<String> nowhere = pieces(f, EvidenceLocation.NOWHERE);
                if (!nowhere.isEmpty()) {
                    out.add("no retrieved passage holds " + String.join(", ", nowhere));
                }
                int missing = count(f, RETRIEVE_KEY_TERMS_MISSING);
                if (missing > 0) {
                    out.add(plural(missing, "name, number or date", "names, numbers or dates")
                            + " of the question appear in no retrieved passage");
                }
                confident(out, f, LLM_RETRIEVE_NO_ANSWER, "no retrieved passage answers the question");
                confident(out, f, LLM_RETRIEVE_PARTIAL, "the passages cover only part of the question");
                confident(out, f, LLM_RETRIEVE_OFF_TOPIC, "the passages are off topic");
                Double top = f.feature(RETRIEVE_TOP_SIM);
                if (out.isEmpty() && top != null) {
                    out.add(String.format(Locale.ROOT, "the best of %d passages is only %.2f similar to the question",
                            count(f, RETRIEVE_PASSAGE_COUNT), top));
                }
            }
            case RERANK -> {
                int kept = count(f, RERANK_OUTPUT_COUNT);
                int input = count(f, RERANK_INPUT_COUNT);
                String keptOf = input > 0 ? "the reranker kept " + kept + " of " + input : "the reranker kept " + kept;
                for (EvidencePiece piece : f.evidenceFlow() == null || f.evidenceFlow().pieces() == null
                        ? List.<EvidencePiece>of() : f.evidenceFlow().pieces()) {
                    if (piece.location() == EvidenceLocation.ONLY_DROPPED) {
                        String where = piece.passageIds() == null || piece.passageIds().isEmpty() ? ""
                                : " (" + String.join(", ", piece.passageIds()) + ")";
                        out.add("the passage holding '" + piece.piece() + "'" + where + " was dropped: " + keptOf);
                    }
                }
                Double rank = f.feature(RETRIEVE_MOST_SIMILAR_RANK);
                if (count(f, RERANK_CUT_MOST_SIMILAR) > 0) {
                    out.add(rank != null
                            ? "the passage most similar to the question was ranked " + rank.intValue()
                                    + " by retrieval and cut: " + keptOf
                            : "the reranker cut the passage most similar to the question: " + keptOf);
                }
                confident(out, f, LLM_RERANK_ANSWER_DROPPED, "the reranker dropped a needed passage");
            }
            case GENERATE -> {
                int statements = count(f, LLM_SUPPORT_STATEMENTS);
                Double unsupported = f.feature(LLM_SUPPORT_UNSUPPORTED);
                if (statements > 0 && unsupported != null && unsupported > 0) {
                    out.add((int) Math.round(unsupported * statements) + " of " + statements
                            + " statements are not supported by the context");
                }
                Double contradicted = f.feature(LLM_SUPPORT_CONTRADICTED);
                if (statements > 0 && contradicted != null && contradicted > 0) {
                    out.add((int) Math.round(contradicted * statements) + " of " + statements
                            + " statements are contradicted by the context");
                }
                List<String> omitted = answered(f, AnswerUse.OMITTED);
                if (!omitted.isEmpty()) {
                    out.add("the answer omits " + String.join(", ", omitted) + ", which its context held");
                }
                List<String> contradictedPieces = answered(f, AnswerUse.CONTRADICTED);
                if (!contradictedPieces.isEmpty()) {
                    out.add("the answer contradicts its context on " + String.join(", ", contradictedPieces));
                }
                int numbers = count(f, GENERATE_UNSUPPORTED_NUMBERS);
                if (numbers > 0) {
                    out.add(plural(numbers, "number", "numbers") + " in the answer appear nowhere in the context");
                }
                int names = count(f, GENERATE_UNSUPPORTED_NAMES);
                if (names > 0) {
                    out.add(plural(names, "name", "names") + " in the answer appear nowhere in the context");
                }
            }
            default -> throw new IllegalStateException("unknown stage " + stage);
        }
        return out;
    }

    private static void confident(List<String> out, RunFeatures f, String feature, String claim) {
        Double v = f.feature(feature);
        if (v != null && v >= CONFIDENT) {
            out.add(String.format(Locale.ROOT, "LLM check (%s): %d/100 that %s", judge(f), Math.round(v), claim));
        }
    }

    private static String judge(RunFeatures f) {
        return f.llm() == null || f.llm().judge() == null ? "judge" : f.llm().judge();
    }

    /** Needed pieces at a location, quoted. */
    static List<String> pieces(RunFeatures f, EvidenceLocation location) {
        List<String> out = new ArrayList<>();
        if (f.evidenceFlow() != null && f.evidenceFlow().pieces() != null) {
            for (EvidencePiece p : f.evidenceFlow().pieces()) {
                if (p.location() == location) {
                    out.add("'" + p.piece() + "'");
                }
            }
        }
        return out;
    }

    /** Needed pieces the generator had in its context and then used this way, quoted. */
    private static List<String> answered(RunFeatures f, AnswerUse use) {
        List<String> out = new ArrayList<>();
        if (f.evidenceFlow() != null && f.evidenceFlow().pieces() != null) {
            for (EvidencePiece p : f.evidenceFlow().pieces()) {
                if (p.location() == EvidenceLocation.IN_CONTEXT && p.answer() == use) {
                    out.add("'" + p.piece() + "'");
                }
            }
        }
        return out;
    }

    static int count(RunFeatures f, String feature) {
        Double v = f.feature(feature);
        return v == null ? 0 : (int) Math.round(v);
    }

    private static String plural(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }
}
