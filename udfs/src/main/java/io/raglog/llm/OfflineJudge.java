package io.raglog.llm;

import static io.raglog.checks.FeatureList.*;

import io.raglog.checks.AnswerMarkup;
import io.raglog.checks.AnswerSentences;
import io.raglog.checks.ContentWords;
import io.raglog.checks.Embedder;
import io.raglog.checks.InPlaceSubstitutions;
import io.raglog.checks.KeyTerm;
import io.raglog.checks.Ranks;
import io.raglog.checks.Refusals;
import io.raglog.checks.RunTexts;
import io.raglog.checks.TextIndex;
import io.raglog.checks.Terms;
import io.raglog.schemas.AnswerUse;
import io.raglog.schemas.EvidenceFlow;
import io.raglog.schemas.EvidenceLocation;
import io.raglog.schemas.EvidencePiece;
import io.raglog.schemas.Fact;
import io.raglog.schemas.FactKind;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * Answers the five checks with no network, from lexical and embedding evidence, deterministically: the embedded
 * default and the tests' instrument. Its confidences are heuristics, not a model's judgement; its id travels with
 * every number it produces so a classifier trained on one judge is never silently fed another's.
 *
 * <p>"Needed pieces of information" are approximated from the question alone as its names, numbers and dates plus
 * the answer itself (to the question's remaining content words). A name, number or date is found in a passage when
 * it occurs there; the answer is found where one sentence answers the question ({@link AnswerSentences}), which is
 * how a reader tells the passage that holds the answer from one that is merely about the same subject. v2 reads the
 * reranker's cut from the generator's context, tells rewrite substitutions from variants by meaning, and locates the
 * answer by sentence; v3 does not take a sentence turned against the question for its answer (the question's "not"
 * missing, the opposite of one of its words: {@link io.raglog.checks.Contrasts}); v4 traces information into the part
 * of a passage the context budget cut off ({@link RunTexts#neverReached}), which v3 called in no retrieved passage;
 * v5 reads a top-n reranker's cut from its reply, not from the context the budget then cut ({@link RunTexts#kept});
 * v6 reads a rewrite's words replaced in place, opposites included ({@link InPlaceSubstitutions}); v7 pairs only
 * content words there by meaning ("how many" written "number of" is no substitution).
 */
public final class OfflineJudge implements Judge {

    public static final String ID = "offline-judge/v7";

    /** Share of a statement's words the context must contain to back it. */
    static final double TOPIC_COVERAGE = 0.6;
    /** Similarity below which a sentence is unrelated to a passage. */
    static final double SIMILAR = 0.55;
    /** Characters of the question the answer's piece quotes; a longer one is cut with an ellipsis. */
    static final int MAX_QUESTION_IN_PIECE = 100;

    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+(?=[A-Z0-9\"'])");

    private final Embedder embedder;

    public OfflineJudge(Embedder embedder) {
        this.embedder = embedder;
    }

    @Override
    public String id() {
        return ID;
    }

    @Override
    public CompletableFuture<CheckOutcome> check(LlmCheck check, Run run) {
        try {
            CheckAnswer answer = answer(check, run);
            return CompletableFuture.completedFuture(new CheckOutcome(check, answer, 1, 0, 0, 0.0, null));
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(new CheckOutcome(check, null, 1, 0, 0, 0.0,
                    "offline judge failed: " + e));
        }
    }

    CheckAnswer answer(LlmCheck check, Run run) {
        String question = RunTexts.question(run);
        if (question == null) {
            throw new IllegalArgumentException("the run has no question");
        }
        return switch (check) {
            case REWRITE -> rewrite(run, question);
            case RETRIEVAL -> retrieval(run, question);
            case RERANK -> rerank(run, question);
            case SUPPORT -> support(run);
            case EVIDENCE_FLOW -> evidenceFlow(run, question);
        };
    }

    private CheckAnswer rewrite(Run run, String question) {
        List<String> rewrites = RunTexts.rewrites(run);
        List<KeyTerm> terms = Terms.keyTerms(question);
        TextIndex all = TextIndex.ofAll(rewrites);
        List<KeyTerm> lost = terms.stream().filter(t -> !all.contains(t)).toList();
        double dropped = terms.isEmpty() ? 0 : 100.0 * lost.size() / terms.size();
        float[] q = vector(question);
        double minSim = rewrites.stream().mapToDouble(r -> Embedder.cosine(q, vector(r))).min().orElse(0);
        ContentWords words = ContentWords.of(question, rewrites);
        List<ContentWords.Substitution> lostFor = words.substitutions(embedder);
        List<ContentWords.Substitution> substitutions = ContentWords.toldOnce(
                InPlaceSubstitutions.of(question, rewrites, embedder), lostFor);
        // A word put in place of another that means something else asks a different question, whatever the overall
        // similarity says (one word of eight moves a sentence vector little). Counted as v5 counted the lost words'
        // pairs (every added word paired, so one lost word can count twice), or as the words told when more.
        int substituted = Math.max(lostFor.size(), substitutions.size());
        double changed = Math.max(scale(0.85 - minSim, 0.5), Math.min(100, 70.0 * substituted));
        int rewriteWords = rewrites.stream().mapToInt(r -> Terms.contentWords(r).size()).sum();
        double addedConf = rewriteWords == 0 ? 0 : scale((double) words.added().size() / rewriteWords, 0.5);
        Found findings = new Found(AnswerParser.MAX_FINDINGS);
        lost.forEach(t -> findings.add(Fact.of(Stage.REWRITE, FactKind.MISSING_TERM, t.subject()),
                "the rewrite lost the " + t));
        substitutions.forEach(sub -> findings.add(
                Fact.of(Stage.REWRITE, FactKind.CHANGED_WORD, Fact.changed(sub.asked(), sub.written())),
                "the rewrite says '" + sub.written() + "' where the question said '" + sub.asked() + "'"));
        if (substitutions.isEmpty() && !words.added().isEmpty()) {
            findings.add(Fact.of(Stage.REWRITE, FactKind.ADDED_WORDS, ""),
                    "the rewrite adds " + String.join(", ", words.added().stream().limit(4).toList()));
        }
        Map<String, Double> f = new LinkedHashMap<>();
        f.put(LLM_REWRITE_DROPPED, round(dropped));
        f.put(LLM_REWRITE_CHANGED, round(changed));
        f.put(LLM_REWRITE_ADDED, round(addedConf));
        f.put(LLM_REWRITE_FAULT, round(Math.max(dropped, Math.max(changed, addedConf * 0.5))));
        return findings.answer(f, null);
    }

    private CheckAnswer retrieval(Run run, String question) {
        List<Passage> passages = RunTexts.retrieved(run);
        List<Piece> pieces = pieces(question);
        double best = 0;
        double meanSim = 0;
        float[] q = vector(question);
        for (Passage p : passages) {
            best = Math.max(best, coverage(pieces, List.of(p)));
            meanSim += Embedder.cosine(q, vector(p.text()));
        }
        meanSim = passages.isEmpty() ? 0 : meanSim / passages.size();
        double union = coverage(pieces, passages);
        // "Does a passage answer it?" is read off the best single sentence, not off the passage's vocabulary: a
        // passage about the subject mentions the question's words without answering it.
        double answered = AnswerSentences.forQuestion(question).bestIn(passages);
        double noAnswer = 100 * (1 - Math.min(best, answered));
        double partial = 100 * Math.max(0, union - best) + 50 * (1 - union) * best;
        double offTopic = scale(0.5 - meanSim, 0.4);
        Found findings = new Found(Integer.MAX_VALUE);
        pieces.stream().filter(pc -> !pc.inAny(passages))
                .forEach(pc -> findings.add(pc.fact(Stage.RETRIEVE, List.of()), "no retrieved passage has " + pc.text()));
        Map<String, Double> f = new LinkedHashMap<>();
        f.put(LLM_RETRIEVE_NO_ANSWER, round(noAnswer));
        f.put(LLM_RETRIEVE_PARTIAL, round(Math.min(100, partial)));
        f.put(LLM_RETRIEVE_OFF_TOPIC, round(offTopic));
        f.put(LLM_RETRIEVE_FAULT, round(Math.max(noAnswer, offTopic)));
        return findings.answer(f, null);
    }

    private CheckAnswer rerank(Run run, String question) {
        List<Passage> input = run.stages().rerank().input();
        List<Passage> kept = RunTexts.kept(run);
        List<Piece> pieces = pieces(question);
        double inputCoverage = coverage(pieces, input);
        double keptCoverage = coverage(pieces, kept);
        float[] q = vector(question);
        double bestInput = input.stream().mapToDouble(p -> Embedder.cosine(q, vector(p.text()))).max().orElse(0);
        double bestKept = kept.stream().mapToDouble(p -> Embedder.cosine(q, vector(p.text()))).max().orElse(0);
        AnswerSentences answers = AnswerSentences.forQuestion(question);
        double answerLost = answers.bestIn(input) - answers.bestIn(kept);
        double dropped = Math.max(Math.max(100 * Math.max(0, inputCoverage - keptCoverage),
                scale(bestInput - bestKept, 0.3)), scale(answerLost, 0.5));
        double[] position = new double[kept.size()];
        double[] sim = new double[kept.size()];
        for (int i = 0; i < kept.size(); i++) {
            position[i] = -i;
            sim[i] = Embedder.cosine(q, vector(kept.get(i).text()));
        }
        Double rho = Ranks.spearman(position, sim);
        double badOrder = rho == null ? 0 : 100 * (1 - rho) / 2;
        Found findings = new Found(Integer.MAX_VALUE);
        if (inputCoverage > keptCoverage) {
            findings.add(Fact.of(Stage.RERANK, FactKind.LOST_COVERAGE, ""),
                    "the kept passages cover less of the question than the reranker's input did");
        }
        if (answerLost > 0 && answers.bestIn(kept) < AnswerSentences.ANSWERS) {
            findings.add(Fact.of(Stage.RERANK, FactKind.MISSING_ANSWER, Fact.ANSWER),
                    "the passage that answers the question was not kept");
        }
        Map<String, Double> f = new LinkedHashMap<>();
        f.put(LLM_RERANK_ANSWER_DROPPED, round(dropped));
        f.put(LLM_RERANK_BAD_ORDER, round(badOrder));
        f.put(LLM_RERANK_FAULT, round(Math.max(dropped, badOrder * 0.5)));
        return findings.answer(f, null);
    }

    private CheckAnswer support(Run run) {
        String answer = AnswerMarkup.stripped(run.stages().generate().answer());
        List<Passage> context = RunTexts.context(run);
        TextIndex contextIndex = TextIndex.ofPassages(RunTexts.texts(context));
        List<String> statements = answer == null ? List.of() : statements(answer);
        int unsupported = 0;
        int contradicted = 0;
        Found findings = new Found(AnswerParser.MAX_FINDINGS);
        for (String s : statements) {
            String verdict = verdict(s, context, contextIndex);
            if (verdict.equals("contradicted")) {
                contradicted++;
                findings.add(Fact.of(Stage.GENERATE, FactKind.CONTRADICTED_STATEMENT, Fact.text(s)),
                        "the context states something else than: " + clip(s));
            } else if (verdict.equals("unsupported")) {
                unsupported++;
                findings.add(Fact.of(Stage.GENERATE, FactKind.UNSUPPORTED_STATEMENT, Fact.text(s)),
                        "not backed by the context: " + clip(s));
            }
        }
        int n = statements.size();
        double fault = round(n == 0 ? 0 : 100.0 * (unsupported + contradicted) / n);
        return findings.answer(AnswerParser.supportFeatures(n, unsupported, contradicted, fault), null);
    }

    /** Sentences that state something: a refusal ("the context does not say") states nothing. */
    private static List<String> statements(String answer) {
        List<String> out = new ArrayList<>();
        for (String s : SENTENCE_END.split(answer.strip())) {
            if (!s.isBlank() && !Terms.contentWords(s).isEmpty() && !Refusals.refuses(s)) {
                out.add(s.strip());
            }
        }
        return out;
    }

    private String verdict(String statement, List<Passage> context, TextIndex contextIndex) {
        List<KeyTerm> terms = Terms.keyTerms(statement);
        List<KeyTerm> missing = terms.stream().filter(t -> !contextIndex.contains(t)).toList();
        float[] s = vector(statement);
        Passage closest = null;
        double bestSim = -1;
        for (Passage p : context) {
            double sim = Embedder.cosine(s, vector(p.text()));
            if (sim > bestSim) {
                bestSim = sim;
                closest = p;
            }
        }
        boolean numberMissing = missing.stream().anyMatch(t -> t.kind() != KeyTerm.Kind.NAME);
        if (numberMissing && closest != null && bestSim >= SIMILAR && !Terms.numbers(closest.text()).isEmpty()) {
            return "contradicted"; // the passage it paraphrases has numbers, just not this one
        }
        if (!missing.isEmpty()) {
            return "unsupported";
        }
        Set<String> words = stems(statement);
        long covered = words.stream().filter(contextIndex::hasWord).count();
        boolean lexical = words.isEmpty() || (double) covered / words.size() >= TOPIC_COVERAGE;
        return lexical || bestSim >= SIMILAR ? "supported" : "unsupported";
    }

    private CheckAnswer evidenceFlow(Run run, String question) {
        List<Passage> context = RunTexts.context(run);
        List<Passage> dropped = RunTexts.neverReached(run);
        Set<String> lostByAssembly = RunTexts.lostInAssembly(run);
        String answer = AnswerMarkup.stripped(run.stages().generate().answer());
        boolean answers = answer != null && !statements(answer).isEmpty();
        TextIndex answerIndex = TextIndex.of(answer);
        List<EvidencePiece> out = new ArrayList<>();
        Found findings = new Found(AnswerParser.MAX_FINDINGS);
        for (Piece piece : pieces(question)) {
            List<String> inContext = idsWith(piece, context);
            List<String> inDropped = idsWith(piece, dropped);
            EvidenceLocation location = !inContext.isEmpty() ? EvidenceLocation.IN_CONTEXT
                    : !inDropped.isEmpty() ? EvidenceLocation.ONLY_DROPPED : EvidenceLocation.NOWHERE;
            AnswerUse use = piece.useBy(answer, answers, answerIndex, context);
            out.add(new EvidencePiece(piece.text(), location, use,
                    location == EvidenceLocation.IN_CONTEXT ? inContext : inDropped, piece.subject()));
            // each finding is about the stage that lost the piece: retrieval when no passage holds it, context
            // assembly when a passage it was handed holds it (the reranker handed it on, whatever else it cut), else
            // the reranker; ReassignmentRule reads the evidence flow the same way
            List<String> lostInAssembly = location == EvidenceLocation.ONLY_DROPPED
                    ? inDropped.stream().filter(lostByAssembly::contains).toList() : List.of();
            if (!lostInAssembly.isEmpty()) {
                findings.add(piece.fact(Stage.ASSEMBLE, lostInAssembly), piece.text() + " was handed on to the prompt ("
                        + String.join(", ", lostInAssembly) + ") and cut or dropped before the generator saw it");
            } else if (location == EvidenceLocation.ONLY_DROPPED) {
                findings.add(piece.fact(Stage.RERANK, inDropped), piece.text() + " was retrieved ("
                        + String.join(", ", inDropped) + ") but never reached the generator");
            } else if (location == EvidenceLocation.NOWHERE) {
                findings.add(piece.fact(Stage.RETRIEVE, List.of()), piece.text() + " is in no retrieved passage");
            }
            // "the context's answering sentence" read as a claim that the context answers, beside retrieval's "no
            // retrieved passage has the answer" in 91 of 114 verdicts flagging both (development samples): the
            // sentence is the one closest to answering, which need not answer
            if (piece.isAnswer() && use == AnswerUse.CONTRADICTED) {
                findings.add(new Fact(Stage.GENERATE, FactKind.CONTRADICTED_PIECE, Fact.ANSWER, inContext),
                        "the answer contradicts the context's sentence closest to answering the question");
            }
        }
        EvidenceFlow flow = new EvidenceFlow(out);
        return findings.answer(AnswerParser.flowFeatures(flow), flow);
    }

    /** A check's findings with the fact each states, up to a limit. */
    private static final class Found {
        private final List<String> texts = new ArrayList<>();
        private final List<Fact> facts = new ArrayList<>();
        private final int limit;

        Found(int limit) {
            this.limit = limit;
        }

        void add(Fact fact, String text) {
            if (texts.size() < limit) {
                texts.add(text);
                facts.add(fact);
            }
        }

        CheckAnswer answer(Map<String, Double> features, EvidenceFlow flow) {
            return new CheckAnswer(features, List.copyOf(texts), flow, List.copyOf(facts));
        }
    }

    private static List<String> idsWith(Piece piece, List<Passage> passages) {
        List<String> ids = new ArrayList<>();
        for (Passage p : passages) {
            if (piece.in(p)) {
                ids.add(p.id());
            }
        }
        return ids;
    }

    /**
     * A needed piece: one name, number or date of the question ({@code term}), or the answer itself
     * ({@code answers}): found in a passage with a sentence that answers the question.
     */
    record Piece(KeyTerm term, AnswerSentences answers, String text) {

        boolean isAnswer() {
            return term == null;
        }

        /** How the checks' facts name this piece: its term's subject, or the answer. */
        String subject() {
            return term == null ? Fact.ANSWER : term.subject();
        }

        /** That this piece is missing at a stage: a missing term, or the missing answer. */
        Fact fact(Stage stage, List<String> passageIds) {
            return new Fact(stage, term == null ? FactKind.MISSING_ANSWER : FactKind.MISSING_TERM, subject(), passageIds);
        }

        boolean in(Passage p) {
            if (term != null) {
                return TextIndex.ofPassage(p.text()).contains(term);
            }
            return answers.bestIn(p.text()) >= AnswerSentences.ANSWERS;
        }

        boolean inAny(List<Passage> passages) {
            return passages.stream().anyMatch(this::in);
        }

        /**
         * A name, number or date: included when the answer repeats it, contradicted when the answer gives another
         * number or date of the kind. The answer: included when the answer's own words come from a context sentence
         * that answers the question; contradicted when it states something else; omitted when it states nothing.
         */
        AnswerUse useBy(String answer, boolean answers, TextIndex answerIndex, List<Passage> context) {
            if (term != null) {
                return answerIndex.contains(term) ? AnswerUse.INCLUDED
                        : contradictedBy(answer) ? AnswerUse.CONTRADICTED : AnswerUse.OMITTED;
            }
            if (!answers) {
                return AnswerUse.OMITTED;
            }
            AnswerSentences.Source source = this.answers.sourceOf(answer, context);
            return source.found() >= 0.5 && source.match() >= AnswerSentences.ANSWERS ? AnswerUse.INCLUDED
                    : AnswerUse.CONTRADICTED;
        }

        /** The answer gives another number or date where this one was asked for. */
        private boolean contradictedBy(String answer) {
            if (term.kind() == KeyTerm.Kind.NAME || answer == null) {
                return false;
            }
            return Terms.keyTerms(answer).stream().anyMatch(t -> t.kind() == term.kind() && !t.norm().equals(term.norm()));
        }
    }

    static List<Piece> pieces(String question) {
        List<Piece> out = new ArrayList<>();
        Set<String> termWords = new LinkedHashSet<>();
        for (KeyTerm t : Terms.keyTerms(question)) {
            out.add(new Piece(t, null, "the " + t));
            termWords.addAll(Terms.words(t.norm()));
        }
        List<String> topicWords = new ArrayList<>();
        for (String w : Terms.contentWords(question)) {
            if (!termWords.contains(w) && !topicWords.contains(w)) {
                topicWords.add(w);
            }
        }
        AnswerSentences answers = AnswerSentences.forQuestion(question);
        if (!topicWords.isEmpty() && answers.hasQuestion()) {
            // named by the question as asked: a reader of the queue, or the content owner a gap goes to, reads "the
            // answer to 'What type of math was advanced during the Yuan?'", not its stems "type math advanced"
            out.add(new Piece(null, answers, "the answer to '" + asAsked(question) + "'"));
        }
        return out;
    }

    /** The question as a piece names it: its own words, a long one shortened. */
    private static String asAsked(String question) {
        String q = question.strip();
        return q.length() > MAX_QUESTION_IN_PIECE ? q.substring(0, MAX_QUESTION_IN_PIECE - 1).strip() + "…" : q;
    }

    /** Share of the pieces found in at least one of the passages (1 when nothing is needed). */
    private static double coverage(List<Piece> pieces, List<Passage> passages) {
        return pieces.isEmpty() ? 1 : (double) pieces.stream().filter(p -> p.inAny(passages)).count() / pieces.size();
    }

    private static Set<String> stems(String text) {
        return Terms.contentStems(text);
    }

    /** Vectors come from the shared cached embedder: the cheap checks already embedded most of these texts. */
    private float[] vector(String text) {
        return embedder.embed(List.of(text == null ? "" : text)).get(0);
    }

    /** 0 at or below 0, 100 at or above {@code full}, linear between. */
    private static double scale(double value, double full) {
        return Math.max(0, Math.min(100, 100 * value / full));
    }

    private static double round(double v) {
        return Math.rint(Math.max(0, Math.min(100, v)));
    }

    private static String clip(String s) {
        return s.length() > 120 ? s.substring(0, 120) + "…" : s;
    }

    @Override
    public void close() {
        // the embedder is shared and released by its owner
    }
}
