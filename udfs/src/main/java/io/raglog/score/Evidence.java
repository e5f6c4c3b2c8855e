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

import io.raglog.checks.FeatureList;
import io.raglog.schemas.AnswerUse;
import io.raglog.schemas.EvidenceLocation;
import io.raglog.schemas.EvidencePiece;
import io.raglog.schemas.Fact;
import io.raglog.schemas.FactKind;
import io.raglog.schemas.Finding;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import io.raglog.score.StatedFacts.Source;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The sentences a flagged stage carries, one per fact: the checks' own findings about that stage (they quote the run:
 * "rewrite dropped the date '2023'"), then what the features and the evidence flow say ("2 of 5 statements are not
 * supported by the context"), merged by what each states ({@link Fact}), not by wording, so a name that the rules,
 * the LLM judge and the evidence flow each found missing reads once, with the checks that agree:
 * "no retrieved passage mentions the name 'Japanese' (rules and LLM judge)". The facts most checks agree on come
 * first, at most {@link #MAX_SENTENCES}. A flag is never left bare: when no check stands out, the sentence says the
 * decision came from the combination of signals.
 */
public final class Evidence {

    /** A person reads these in a queue: a handful, most specific first. */
    public static final int MAX_SENTENCES = 4;

    /** LLM confidences (0-100) at or above this are worth quoting. */
    static final double CONFIDENT = 50.0;

    private Evidence() {}

    public static List<String> forStage(Stage stage, RunFeatures features, double probability, double threshold) {
        StatedFacts facts = new StatedFacts(judge(features));
        if (features.findings() != null) {
            for (Finding finding : features.findings()) {
                if (finding.stage() == stage && finding.text() != null && !finding.text().isBlank()) {
                    // a finding in words only (a model's, or features written before facts) is its own fact
                    Fact fact = finding.fact() != null ? finding.fact()
                            : Fact.of(stage, FactKind.OTHER, Fact.text(finding.text()));
                    facts.state(fact, Source.ofCheck(finding.check()), finding.text());
                }
            }
        }
        derived(stage, features, facts);
        List<String> out = new ArrayList<>(facts.sentences());
        if (out.isEmpty()) {
            out.add(String.format(Locale.ROOT,
                    "fault probability %.2f is above the %s threshold %.2f: no single check stands out, the "
                            + "combination of signals does", probability, stage.id(), threshold));
        }
        return List.copyOf(out.subList(0, Math.min(MAX_SENTENCES, out.size())));
    }

    /** The sentence the reassignment rule adds to the retrieval stage it cleared. */
    public static String clearedByReassignment(RunFeatures features) {
        List<String> pieces = new ArrayList<>();
        for (EvidencePiece p : pieces(features)) {
            if (p.location() == EvidenceLocation.ONLY_DROPPED) {
                pieces.add(quoted(p.piece()));
            }
        }
        return "retrieval found " + (pieces.isEmpty() ? "the needed information" : String.join(", ", pieces))
                + ", the reranker dropped it: the fault was moved to the reranker";
    }

    /**
     * What the features and the evidence flow add. A count that only sums up facts already stated one by one
     * ("2 names ... appear in no retrieved passage" beside each name) is left out; a sentence about a fact a check
     * already stated merges into it.
     */
    private static void derived(Stage stage, RunFeatures f, StatedFacts facts) {
        switch (stage) {
            case REWRITE -> {
                int lost = count(f, REWRITE_LOST_NAMES) + count(f, REWRITE_LOST_NUMBERS) + count(f, REWRITE_LOST_DATES);
                if (lost > 0 && !facts.has(FactKind.MISSING_TERM)) {
                    facts.state(Fact.of(stage, FactKind.MISSING_TERM, "count"), Source.RULES, "the rewrite lost "
                            + plural(lost, "name, number or date", "names, numbers or dates") + " of the question");
                }
                if (!facts.has(FactKind.MISSING_TERM)) {
                    confident(facts, f, LLM_REWRITE_DROPPED, Fact.of(stage, FactKind.CHANGED_MEANING, "dropped"),
                            "the rewrite dropped a constraint of the question");
                }
                if (!facts.has(FactKind.CHANGED_WORD)) {
                    confident(facts, f, LLM_REWRITE_CHANGED, Fact.of(stage, FactKind.CHANGED_MEANING, "changed"),
                            "the rewrite asks a different question");
                }
            }
            case EMBED -> {
                if (count(f, EMBED_TRUNCATED) > 0) {
                    facts.state(Fact.of(stage, FactKind.CUT_OFF, ""), Source.RULES,
                            "the text sent for embedding is a cut-off prefix of the query");
                }
                int lost = count(f, EMBED_LOST_KEY_TERMS);
                if (lost > 0 && !facts.has(FactKind.MISSING_TERM)) {
                    facts.state(Fact.of(stage, FactKind.MISSING_TERM, "count"), Source.RULES,
                            "the text sent for embedding lost " + plural(lost, "key term", "key terms")
                                    + " of the query it should embed");
                }
                int near = count(f, EMBED_NEAR_MISS_WORDS);
                if (near > 0 && !facts.has(FactKind.CHANGED_WORD)) {
                    facts.state(Fact.of(stage, FactKind.CHANGED_WORD, "count"), Source.RULES,
                            plural(near, "embedded word is", "embedded words are") + " one or two edits off the query");
                }
                Double sim = f.feature(EMBED_SIM_SOURCE);
                if (facts.isEmpty() && sim != null) {
                    facts.state(Fact.of(stage, FactKind.OTHER, "similarity"), Source.VECTORS, String.format(Locale.ROOT,
                            "the embedded text is only %.2f similar to the query it should embed", sim));
                }
            }
            case RETRIEVE -> {
                for (EvidencePiece piece : pieces(f)) {
                    if (piece.location() == EvidenceLocation.NOWHERE) {
                        facts.state(missing(stage, piece, List.of()), Source.LLM,
                                "no retrieved passage holds " + quoted(piece.piece()));
                    }
                }
                int missing = count(f, RETRIEVE_KEY_TERMS_MISSING);
                if (missing > 0 && !facts.has(FactKind.MISSING_TERM)) {
                    facts.state(Fact.of(stage, FactKind.MISSING_TERM, "count"), Source.RULES,
                            plural(missing, "name, number or date", "names, numbers or dates")
                                    + " of the question appear in no retrieved passage");
                }
                confident(facts, f, LLM_RETRIEVE_NO_ANSWER, Fact.of(stage, FactKind.MISSING_ANSWER, Fact.ANSWER),
                        "no retrieved passage answers the question");
                confident(facts, f, LLM_RETRIEVE_PARTIAL, Fact.of(stage, FactKind.WEAK_PASSAGES, "partial"),
                        "the passages cover only part of the question");
                confident(facts, f, LLM_RETRIEVE_OFF_TOPIC, Fact.of(stage, FactKind.WEAK_PASSAGES, "off topic"),
                        "the passages are off topic");
                Double top = f.feature(RETRIEVE_TOP_SIM);
                if (facts.isEmpty() && top != null) {
                    facts.state(Fact.of(stage, FactKind.OTHER, "similarity"), Source.VECTORS, String.format(Locale.ROOT,
                            "the best of %d passages is only %.2f similar to the question",
                            count(f, RETRIEVE_PASSAGE_COUNT), top));
                }
            }
            case RERANK -> {
                int kept = count(f, RERANK_OUTPUT_COUNT);
                int input = count(f, RERANK_INPUT_COUNT);
                String keptOf = input > 0 ? "the reranker kept " + kept + " of " + input : "the reranker kept " + kept;
                for (EvidencePiece piece : pieces(f)) {
                    if (piece.location() == EvidenceLocation.ONLY_DROPPED) {
                        List<String> ids = piece.passageIds() == null ? List.of() : piece.passageIds();
                        String where = ids.isEmpty() ? "" : " (" + String.join(", ", ids) + ")";
                        facts.state(missing(stage, piece, ids), Source.LLM, "the passage holding "
                                + quoted(piece.piece()) + where + " was dropped: " + keptOf);
                    }
                }
                if (count(f, RERANK_CUT_MOST_SIMILAR) > 0) {
                    Double rank = f.feature(RETRIEVE_MOST_SIMILAR_RANK);
                    facts.state(Fact.of(stage, FactKind.CUT_MOST_SIMILAR, ""), Source.VECTORS, rank != null
                            ? "the passage most similar to the question was ranked " + rank.intValue()
                                    + " by retrieval and cut: " + keptOf
                            : "the reranker cut the passage most similar to the question: " + keptOf);
                }
                confident(facts, f, LLM_RERANK_ANSWER_DROPPED, Fact.of(stage, FactKind.MISSING_ANSWER, Fact.ANSWER),
                        "the reranker dropped a needed passage");
            }
            case ASSEMBLE -> {
                Double flowLost = f.feature(FeatureList.ASSEMBLE_FLOW_LOST);
                if (flowLost != null && flowLost > 0 && !facts.has(FactKind.MISSING_ANSWER)) {
                    facts.state(Fact.of(stage, FactKind.MISSING_ANSWER, Fact.ANSWER), Source.LLM, String.format(
                            Locale.ROOT, "%.0f%% of the information needed to answer was handed on to the prompt and"
                                    + " cut or dropped before it", 100 * flowLost));
                }
                Double gap = f.feature(FeatureList.ASSEMBLE_LOST_SIM_GAP);
                if (facts.isEmpty() && gap != null && gap > 0) {
                    facts.state(Fact.of(stage, FactKind.LOST_IN_ASSEMBLY, "similarity"), Source.VECTORS,
                            String.format(Locale.ROOT, "a passage cut or dropped before the prompt is %.2f more similar"
                                    + " to the question than any passage the prompt kept", gap));
                }
                if (facts.isEmpty()) {
                    facts.state(Fact.of(stage, FactKind.LOST_IN_ASSEMBLY, ""), Source.RULES, count(f,
                            FeatureList.ASSEMBLE_CUT) + " passage(s) handed on were cut and " + count(f,
                            FeatureList.ASSEMBLE_DROPPED) + " dropped before the prompt");
                }
            }
            case GENERATE -> {
                int statements = count(f, LLM_SUPPORT_STATEMENTS);
                Double unsupported = f.feature(LLM_SUPPORT_UNSUPPORTED);
                if (statements > 0 && unsupported != null && unsupported > 0
                        && !facts.has(FactKind.UNSUPPORTED_STATEMENT)) {
                    facts.state(Fact.of(stage, FactKind.UNSUPPORTED_STATEMENT, "count"), Source.LLM,
                            (int) Math.round(unsupported * statements) + " of " + statements
                                    + " statements are not supported by the context");
                }
                Double contradicted = f.feature(LLM_SUPPORT_CONTRADICTED);
                if (statements > 0 && contradicted != null && contradicted > 0
                        && !facts.has(FactKind.CONTRADICTED_STATEMENT)) {
                    facts.state(Fact.of(stage, FactKind.CONTRADICTED_STATEMENT, "count"), Source.LLM,
                            (int) Math.round(contradicted * statements) + " of " + statements
                                    + " statements are contradicted by the context");
                }
                for (EvidencePiece piece : pieces(f)) {
                    if (piece.location() != EvidenceLocation.IN_CONTEXT) {
                        continue;
                    }
                    List<String> ids = piece.passageIds() == null ? List.of() : piece.passageIds();
                    if (piece.answer() == AnswerUse.OMITTED) {
                        facts.state(new Fact(stage, FactKind.OMITTED_PIECE, subject(piece), ids), Source.LLM,
                                "the answer omits " + quoted(piece.piece()) + ", which its context held");
                    } else if (piece.answer() == AnswerUse.CONTRADICTED) {
                        facts.state(new Fact(stage, FactKind.CONTRADICTED_PIECE, subject(piece), ids), Source.LLM,
                                "the answer contradicts its context on " + quoted(piece.piece()));
                    }
                }
                int numbers = count(f, GENERATE_UNSUPPORTED_NUMBERS);
                int names = count(f, GENERATE_UNSUPPORTED_NAMES);
                if (!facts.has(FactKind.UNSUPPORTED_TERM)) {
                    if (numbers > 0) {
                        facts.state(Fact.of(stage, FactKind.UNSUPPORTED_TERM, "count:numbers"), Source.RULES,
                                plural(numbers, "number", "numbers") + " in the answer appear nowhere in the context");
                    }
                    if (names > 0) {
                        facts.state(Fact.of(stage, FactKind.UNSUPPORTED_TERM, "count:names"), Source.RULES,
                                plural(names, "name", "names") + " in the answer appear nowhere in the context");
                    }
                }
            }
            default -> throw new IllegalStateException("unknown stage " + stage);
        }
    }

    private static void confident(StatedFacts facts, RunFeatures f, String feature, Fact fact, String claim) {
        Double v = f.feature(feature);
        if (v != null && v >= CONFIDENT) {
            facts.confidence(fact, v, claim);
        }
    }

    /** That a needed piece is missing at a stage: the same fact the checks state of its term, or of the answer. */
    private static Fact missing(Stage stage, EvidencePiece piece, List<String> ids) {
        String subject = subject(piece);
        return new Fact(stage, Fact.ANSWER.equals(subject) ? FactKind.MISSING_ANSWER : FactKind.MISSING_TERM, subject,
                ids);
    }

    /** The piece as facts name it; a piece a judge named only in words is its own subject. */
    private static String subject(EvidencePiece piece) {
        return piece.subject() != null ? piece.subject() : "piece:" + Fact.text(piece.piece());
    }

    private static List<EvidencePiece> pieces(RunFeatures f) {
        return f.evidenceFlow() == null || f.evidenceFlow().pieces() == null ? List.of() : f.evidenceFlow().pieces();
    }

    /** A piece in quotes, unless it quotes already ("the name 'Japanese'"): quotes inside quotes read as noise. */
    static String quoted(String piece) {
        return piece.indexOf('\'') >= 0 || piece.indexOf('"') >= 0 ? piece : "'" + piece + "'";
    }

    private static String judge(RunFeatures f) {
        return f.llm() == null || f.llm().judge() == null ? "judge" : f.llm().judge();
    }

    static int count(RunFeatures f, String feature) {
        Double v = f.feature(feature);
        return v == null ? 0 : (int) Math.round(v);
    }

    private static String plural(int n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }
}
