package io.raglog.reask;

import io.raglog.checks.AnswerType;
import io.raglog.checks.Contrasts;
import io.raglog.checks.Embedder;
import io.raglog.checks.Terms;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * How closely one question paraphrases another, in [0, 1]: the content words they share — in any form, with a typo
 * forgiven — and, when an embedder is at hand, the cosine of their embeddings, which meets synonyms the words miss.
 * Plain Java; the Flink function holds no part of it.
 */
public final class QuestionSimilarity {

    /** What separates a question's tokens, and the marks trimmed off a token's ends: compiled once, not per call. */
    private static final Pattern NOT_TOKEN = Pattern.compile("[^\\p{L}\\p{N}'’.-]+");
    private static final Pattern TOKEN_EDGE_MARKS = Pattern.compile("^[.'’-]+|[.'’-]+$");

    /**
     * What people say around a question they ask again ("I mean", "sorry", "exactly", "again"): words that carry no
     * topic. Taken from how people talk, not from any simulator's list; a word missing here costs a little overlap.
     */
    static final Set<String> CHATTER = Set.of("mean", "meant", "sorry", "wait", "ok", "okay", "hmm", "rephrase",
            "asking", "asked", "ask", "again", "exactly", "actually", "really", "precisely", "specifically",
            "originally", "though", "know", "just", "whats", "what's", "hey", "hi", "thanks", "pls", "plz", "said",
            "say", "anyway", "then", "well", "no");

    private final Embedder embedder;
    private final double embeddingWeight;

    /** @param embedder null for the lexical score alone */
    public QuestionSimilarity(Embedder embedder, double embeddingWeight) {
        this.embedder = embedder;
        this.embeddingWeight = embedder == null ? 0 : embeddingWeight;
    }

    public double score(String question, String earlier) {
        double lexical = lexical(question, earlier);
        if (embeddingWeight == 0) {
            return lexical;
        }
        List<float[]> v = embedder.embed(List.of(question, earlier));
        double cosine = Math.max(0, Embedder.cosine(v.get(0), v.get(1)));
        return (1 - embeddingWeight) * lexical + embeddingWeight * cosine;
    }

    /**
     * The words both questions share, then what tells a different question on the same topic from the same question
     * in other words. Shared words: the mean of Dice (each side's words found on the other, over both sides' counts)
     * and the share of the new question's words found in the earlier one — a shorter form of a question keeps few of
     * its words but adds none. A name or number the earlier question did not have, or a negation only one of them
     * has, or another kind of answer asked for ({@link AnswerType}: "who …" after "when …"), makes a different
     * question ("… in 1904" after "… since 2004", "… not rest on" after "… rest on"), so each costs a share of the
     * score.
     */
    public static double lexical(String question, String earlier) {
        List<String> x = topicWords(question);
        List<String> y = topicWords(earlier);
        if (x.isEmpty() || y.isEmpty()) {
            return 0;
        }
        int xFound = found(x, y);
        double dice = (double) (xFound + found(y, x)) / (x.size() + y.size());
        double covered = (double) xFound / x.size();
        double score = (dice + covered) / 2;
        int newNames = newNamesOrNumbers(question, y);
        if (Contrasts.negated(question) != Contrasts.negated(earlier)) {
            score *= 1 - DIFFERENT_QUESTION_COST;
        }
        AnswerType asked = AnswerType.of(question);
        AnswerType askedBefore = AnswerType.of(earlier);
        if (asked != null && askedBefore != null && asked != askedBefore) {
            score *= 1 - DIFFERENT_QUESTION_COST;
        }
        for (int i = 0; i < newNames; i++) {
            score *= 1 - DIFFERENT_QUESTION_COST;
        }
        return score;
    }

    /** The share of the score a new name or number, or a negation only one side has, costs. */
    static final double DIFFERENT_QUESTION_COST = 0.3;

    /**
     * Names (capitalised words past the first) and numbers of {@code question} that {@code earlierWords} lack in any
     * form. A question typed in lower case has none to compare, which only makes it lean on the shared words.
     */
    static int newNamesOrNumbers(String question, List<String> earlierWords) {
        int n = 0;
        String[] tokens = NOT_TOKEN.split(question);
        boolean first = true;
        for (String raw : tokens) {
            String token = TOKEN_EDGE_MARKS.matcher(raw).replaceAll("");
            if (token.isEmpty()) {
                continue;
            }
            boolean name = !first && Character.isUpperCase(token.codePointAt(0)) && token.length() > 1;
            boolean number = Character.isDigit(token.codePointAt(0));
            first = false;
            if (!name && !number) {
                continue;
            }
            String lower = token.toLowerCase(java.util.Locale.ROOT);
            if (!Terms.isContentWord(lower) || CHATTER.contains(lower)) {
                continue;
            }
            boolean known = false;
            for (String w : earlierWords) {
                if (number ? w.equals(lower) : sameWord(lower, w)) {
                    known = true;
                    break;
                }
            }
            n += known ? 0 : 1;
        }
        return n;
    }

    /** Distinct content words, lower case, without the chatter around a question. */
    static List<String> topicWords(String text) {
        Set<String> out = new LinkedHashSet<>();
        for (String w : Terms.contentWords(text)) {
            if (!CHATTER.contains(w)) {
                out.add(w);
            }
        }
        return new ArrayList<>(out);
    }

    private static int found(List<String> words, List<String> in) {
        int n = 0;
        for (String w : words) {
            for (String other : in) {
                if (sameWord(w, other)) {
                    n++;
                    break;
                }
            }
        }
        return n;
    }

    /**
     * The same word in another form ({@link Terms#sameWord}), or with one slip of the keyboard inside it: a letter
     * dropped, doubled or mistyped, or two neighbours swapped. Only words of four letters or more, and never a slip in
     * the first letter, so "imports" stays apart from "exports" and "cat" from "bat".
     */
    static boolean sameWord(String a, String b) {
        if (a.equals(b) || Terms.sameWord(a, b)) {
            return true;
        }
        if (Math.min(a.length(), b.length()) < 4 || a.charAt(0) != b.charAt(0)) {
            return false;
        }
        return Terms.editDistance(a, b, 1) <= 1 || swappedNeighbours(a, b);
    }

    private static boolean swappedNeighbours(String a, String b) {
        if (a.length() != b.length()) {
            return false;
        }
        int first = -1;
        for (int i = 0; i < a.length(); i++) {
            if (a.charAt(i) != b.charAt(i)) {
                if (first >= 0) {
                    return i == first + 1 && a.charAt(first) == b.charAt(i) && a.charAt(i) == b.charAt(first)
                            && a.substring(i + 1).equals(b.substring(i + 1));
                }
                first = i;
            }
        }
        return false;
    }
}
