package io.raglog.llm;

import static io.raglog.checks.FeatureList.*;

import io.raglog.checks.Embedder;
import io.raglog.checks.KeyTerm;
import io.raglog.checks.Ranks;
import io.raglog.checks.RunTexts;
import io.raglog.checks.TextIndex;
import io.raglog.checks.Terms;
import io.raglog.schemas.AnswerUse;
import io.raglog.schemas.EvidenceFlow;
import io.raglog.schemas.EvidenceLocation;
import io.raglog.schemas.EvidencePiece;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Run;
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
 * its topic (the remaining content words); a piece is found in a passage when all its words (for the topic: most of
 * them) occur there.
 */
public final class OfflineJudge implements Judge {

    public static final String ID = "offline-judge/v1";

    /** Share of the topic's words a passage or answer must contain to count as mentioning it. */
    static final double TOPIC_COVERAGE = 0.6;
    /** Similarity below which a sentence is unrelated to a passage. */
    static final double SIMILAR = 0.55;

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
        double changed = scale(0.85 - minSim, 0.5);
        Set<String> questionStems = stems(question);
        Set<String> added = new LinkedHashSet<>();
        for (String r : rewrites) {
            for (String w : Terms.contentWords(r)) {
                if (!questionStems.contains(Terms.stem(w))) {
                    added.add(w);
                }
            }
        }
        int rewriteWords = rewrites.stream().mapToInt(r -> Terms.contentWords(r).size()).sum();
        double addedConf = rewriteWords == 0 ? 0 : scale((double) added.size() / rewriteWords, 0.5);
        List<String> findings = new ArrayList<>();
        lost.forEach(t -> findings.add("the rewrite lost the " + t));
        if (!added.isEmpty()) {
            findings.add("the rewrite adds " + String.join(", ", added.stream().limit(4).toList()));
        }
        Map<String, Double> f = new LinkedHashMap<>();
        f.put(LLM_REWRITE_DROPPED, round(dropped));
        f.put(LLM_REWRITE_CHANGED, round(changed));
        f.put(LLM_REWRITE_ADDED, round(addedConf));
        f.put(LLM_REWRITE_FAULT, round(Math.max(dropped, Math.max(changed, addedConf * 0.5))));
        return new CheckAnswer(f, findings, null);
    }

    private CheckAnswer retrieval(Run run, String question) {
        List<Passage> passages = RunTexts.retrieved(run);
        List<Piece> pieces = pieces(question);
        double best = 0;
        double meanSim = 0;
        float[] q = vector(question);
        for (Passage p : passages) {
            TextIndex index = TextIndex.of(p.text());
            best = Math.max(best, coverage(pieces, index));
            meanSim += Embedder.cosine(q, vector(p.text()));
        }
        meanSim = passages.isEmpty() ? 0 : meanSim / passages.size();
        double union = coverage(pieces, TextIndex.ofAll(RunTexts.texts(passages)));
        double noAnswer = 100 * (1 - best);
        double partial = 100 * Math.max(0, union - best) + 50 * (1 - union) * best;
        double offTopic = scale(0.5 - meanSim, 0.4);
        List<String> findings = new ArrayList<>();
        pieces.stream().filter(pc -> !pc.in(TextIndex.ofAll(RunTexts.texts(passages))))
                .forEach(pc -> findings.add("no retrieved passage has " + pc.text()));
        Map<String, Double> f = new LinkedHashMap<>();
        f.put(LLM_RETRIEVE_NO_ANSWER, round(noAnswer));
        f.put(LLM_RETRIEVE_PARTIAL, round(Math.min(100, partial)));
        f.put(LLM_RETRIEVE_OFF_TOPIC, round(offTopic));
        f.put(LLM_RETRIEVE_FAULT, round(Math.max(noAnswer, offTopic)));
        return new CheckAnswer(f, findings, null);
    }

    private CheckAnswer rerank(Run run, String question) {
        List<Passage> input = run.stages().rerank().input();
        List<Passage> kept = run.stages().rerank().output();
        List<Piece> pieces = pieces(question);
        double inputCoverage = coverage(pieces, TextIndex.ofAll(RunTexts.texts(input)));
        double keptCoverage = coverage(pieces, TextIndex.ofAll(RunTexts.texts(kept)));
        float[] q = vector(question);
        double bestInput = input.stream().mapToDouble(p -> Embedder.cosine(q, vector(p.text()))).max().orElse(0);
        double bestKept = kept.stream().mapToDouble(p -> Embedder.cosine(q, vector(p.text()))).max().orElse(0);
        double dropped = Math.max(100 * Math.max(0, inputCoverage - keptCoverage), scale(bestInput - bestKept, 0.3));
        double[] position = new double[kept.size()];
        double[] sim = new double[kept.size()];
        for (int i = 0; i < kept.size(); i++) {
            position[i] = -i;
            sim[i] = Embedder.cosine(q, vector(kept.get(i).text()));
        }
        Double rho = Ranks.spearman(position, sim);
        double badOrder = rho == null ? 0 : 100 * (1 - rho) / 2;
        List<String> findings = new ArrayList<>();
        if (inputCoverage > keptCoverage) {
            findings.add("the kept passages cover less of the question than the reranker's input did");
        }
        Map<String, Double> f = new LinkedHashMap<>();
        f.put(LLM_RERANK_ANSWER_DROPPED, round(dropped));
        f.put(LLM_RERANK_BAD_ORDER, round(badOrder));
        f.put(LLM_RERANK_FAULT, round(Math.max(dropped, badOrder * 0.5)));
        return new CheckAnswer(f, findings, null);
    }

    private CheckAnswer support(Run run) {
        String answer = run.stages().generate().answer();
        List<Passage> context = RunTexts.context(run);
        TextIndex contextIndex = TextIndex.ofAll(RunTexts.texts(context));
        List<String> statements = answer == null ? List.of() : statements(answer);
        int unsupported = 0;
        int contradicted = 0;
        List<String> findings = new ArrayList<>();
        for (String s : statements) {
            String verdict = verdict(s, context, contextIndex);
            if (verdict.equals("contradicted")) {
                contradicted++;
                findings.add("the context states something else than: " + clip(s));
            } else if (verdict.equals("unsupported")) {
                unsupported++;
                findings.add("not backed by the context: " + clip(s));
            }
        }
        Map<String, Double> f = new LinkedHashMap<>();
        int n = statements.size();
        f.put(LLM_SUPPORT_STATEMENTS, (double) n);
        if (n > 0) {
            f.put(LLM_SUPPORT_UNSUPPORTED, (double) unsupported / n);
            f.put(LLM_SUPPORT_CONTRADICTED, (double) contradicted / n);
        }
        f.put(LLM_SUPPORT_FAULT, round(n == 0 ? 0 : 100.0 * (unsupported + contradicted) / n));
        return new CheckAnswer(f, findings.stream().limit(AnswerParser.MAX_FINDINGS).toList(), null);
    }

    /** Sentences that state something: a refusal ("the context does not say") states nothing. */
    private static List<String> statements(String answer) {
        List<String> out = new ArrayList<>();
        for (String s : SENTENCE_END.split(answer.strip())) {
            if (!s.isBlank() && !Terms.contentWords(s).isEmpty() && !REFUSAL.matcher(s).find()) {
                out.add(s.strip());
            }
        }
        return out;
    }

    private static final Pattern REFUSAL = Pattern.compile("(?i)\\b(?:does not|do not|doesn't|don't|cannot|can't) "
            + "(?:contain|mention|say|know|answer|provide|find)|no information|not (?:mentioned|provided|available)");

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
        List<Passage> dropped = RunTexts.dropped(run);
        String answer = run.stages().generate().answer();
        TextIndex answerIndex = TextIndex.of(answer);
        List<EvidencePiece> out = new ArrayList<>();
        List<String> findings = new ArrayList<>();
        for (Piece piece : pieces(question)) {
            List<String> inContext = idsWith(piece, context);
            List<String> inDropped = idsWith(piece, dropped);
            EvidenceLocation location = !inContext.isEmpty() ? EvidenceLocation.IN_CONTEXT
                    : !inDropped.isEmpty() ? EvidenceLocation.ONLY_DROPPED : EvidenceLocation.NOWHERE;
            AnswerUse use = piece.in(answerIndex) ? AnswerUse.INCLUDED
                    : piece.contradictedBy(answer) ? AnswerUse.CONTRADICTED : AnswerUse.OMITTED;
            out.add(new EvidencePiece(piece.text(), location, use,
                    location == EvidenceLocation.IN_CONTEXT ? inContext : inDropped));
            if (location == EvidenceLocation.ONLY_DROPPED) {
                findings.add(piece.text() + " was retrieved (" + String.join(", ", inDropped)
                        + ") but never reached the generator");
            } else if (location == EvidenceLocation.NOWHERE) {
                findings.add(piece.text() + " is in no retrieved passage");
            }
        }
        EvidenceFlow flow = new EvidenceFlow(out);
        return new CheckAnswer(AnswerParser.flowFeatures(flow),
                findings.stream().limit(AnswerParser.MAX_FINDINGS).toList(), flow);
    }

    private static List<String> idsWith(Piece piece, List<Passage> passages) {
        List<String> ids = new ArrayList<>();
        for (Passage p : passages) {
            if (piece.in(TextIndex.of(p.text()))) {
                ids.add(p.id());
            }
        }
        return ids;
    }

    /** A needed piece: one key term of the question, or its topic (its other content words). */
    private record Piece(KeyTerm term, Set<String> topic, String text) {

        boolean in(TextIndex index) {
            if (term != null) {
                return index.contains(term);
            }
            long found = topic.stream().filter(index::hasWord).count();
            return (double) found / topic.size() >= TOPIC_COVERAGE;
        }

        /** The answer gives another number or date where this one was asked for. */
        boolean contradictedBy(String answer) {
            if (term == null || term.kind() == KeyTerm.Kind.NAME || answer == null) {
                return false;
            }
            return Terms.keyTerms(answer).stream().anyMatch(t -> t.kind() == term.kind() && !t.norm().equals(term.norm()));
        }
    }

    static List<Piece> pieces(String question) {
        List<Piece> out = new ArrayList<>();
        Set<String> termWords = new LinkedHashSet<>();
        for (KeyTerm t : Terms.keyTerms(question)) {
            out.add(new Piece(t, Set.of(), "the " + t));
            termWords.addAll(Terms.words(t.norm()));
        }
        Set<String> topic = new LinkedHashSet<>();
        List<String> topicWords = new ArrayList<>();
        for (String w : Terms.contentWords(question)) {
            if (!termWords.contains(w) && topic.add(Terms.stem(w))) {
                topicWords.add(w);
            }
        }
        if (!topic.isEmpty()) {
            out.add(new Piece(null, topic, "'" + String.join(" ", topicWords) + "'"));
        }
        return out;
    }

    private static double coverage(List<Piece> pieces, TextIndex index) {
        return pieces.isEmpty() ? 1 : (double) pieces.stream().filter(p -> p.in(index)).count() / pieces.size();
    }

    private static Set<String> stems(String text) {
        Set<String> out = new LinkedHashSet<>();
        Terms.contentWords(text).forEach(w -> out.add(Terms.stem(w)));
        return out;
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
