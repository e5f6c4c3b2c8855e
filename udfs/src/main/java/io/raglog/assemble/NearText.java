package io.raglog.assemble;

import io.raglog.checks.QueryInstruction;
import io.raglog.checks.Terms;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * How closely a text sent for embedding follows a text the run already holds (its rewrite or its question), when the
 * two are not equal: the embedding stage is exactly where faults change the text (a typo, a cut at a token budget, a
 * lost or an added word), and real pipelines prefix what they embed with an instruction ({@code query: },
 * {@code Represent this sentence for searching relevant passages: }). Linking by equality alone split every such call
 * off its run.
 *
 * <p>The score is word-level: the embedded words found in the source (equal, the same word in another form, one or
 * two edits off, or the last word cut short) against all the embedded words (what was added) and against all the
 * source's words (what was lost), function words counting a fifth of a content word; what was lost counts less when
 * the embedded text is the source's beginning (a truncation keeps the words in order). An instruction before a colon
 * is tried off as well, and the better score kept.
 */
final class NearText {

    /** Below this a text is not taken to come from the source: unrelated questions of one pipeline score under it. */
    static final double FLOOR = 0.5;
    /** What a function word weighs beside a content word: "what is the" links nothing by itself. */
    private static final double FUNCTION_WORD = 0.2;
    /** What a score keeps when content words were both added and lost (see {@link #score(List, List)}). */
    private static final double SUBSTITUTED = 0.5;
    /** A source found whole inside a longer embedded text, and found as its end (see {@link #wrapped}). */
    static final double WRAPPED = 0.8;
    static final double WRAPPED_AT_END = 0.9;
    /** Two content words in order make a source specific enough to recognise inside another text. */
    private static final int MIN_WRAPPED_CONTENT_WORDS = 2;
    /** How far from its source word's position a garbled word may stand (words added or dropped before it). */
    private static final int GARBLED_SHIFT = 2;
    /** Words of the embedded text matched as equal or near before a garbled one may be read beside them. */
    private static final int MIN_GARBLED_ANCHORS = 3;

    private NearText() {}

    /** Whether {@code embedded} follows {@code source} closely enough to link; see {@link #score}. */
    static boolean near(String embedded, String source) {
        return score(embedded, source) >= FLOOR;
    }

    /**
     * 0..1: 1 for the same words; 0 when no content word of the embedded text comes from the source. Both texts as
     * {@link Texts#norm} gives them.
     */
    static double score(String embedded, String source) {
        if (embedded == null || source == null || embedded.isEmpty() || source.isEmpty()) {
            return 0;
        }
        return score(Embedded.of(embedded), Terms.words(source));
    }

    /**
     * An embedded text's words, read once, as sent and without each instruction prefix in turn (a pipeline may stack
     * two: its framework's and its embedding model's, "query: search_query: ...").
     */
    record Embedded(List<String> words, List<List<String>> bare) {
        static Embedded of(String text) {
            List<List<String>> bare = new ArrayList<>(QueryInstruction.MAX_STACKED);
            String rest = QueryInstruction.after(text);
            while (rest != null && bare.size() < QueryInstruction.MAX_STACKED) {
                bare.add(Terms.words(rest));
                rest = QueryInstruction.after(rest);
            }
            return new Embedded(Terms.words(text), List.copyOf(bare));
        }
    }

    static double score(Embedded embedded, List<String> sourceWords) {
        double best = score(embedded.words(), sourceWords);
        for (List<String> bare : embedded.bare()) {
            best = Math.max(best, score(bare, sourceWords));
        }
        return Math.max(best, wrapped(embedded.words(), sourceWords));
    }

    /**
     * The wrong field embedded: the source whole, word for word, inside a longer text (the chat history with the
     * follow-up question last, the rewrite prompt filled in). Precision says such a text came from elsewhere, yet it
     * holds the source verbatim; as its last words (a follow-up input) it is the stronger claim, since a history also
     * holds earlier questions.
     */
    private static double wrapped(List<String> embedded, List<String> source) {
        if (embedded.size() <= source.size() || contentWords(source) < MIN_WRAPPED_CONTENT_WORDS) {
            return 0;
        }
        int at = Collections.lastIndexOfSubList(embedded, source);
        if (at < 0) {
            return 0;
        }
        return at + source.size() == embedded.size() ? WRAPPED_AT_END : WRAPPED;
    }

    private static int contentWords(List<String> words) {
        int n = 0;
        for (String w : words) {
            n += Terms.isContentWord(w) ? 1 : 0;
        }
        return n;
    }

    private static double score(List<String> embedded, List<String> source) {
        if (embedded.isEmpty() || source.isEmpty()) {
            return 0;
        }
        boolean[] used = new boolean[source.size()];
        int[] matchedAt = new int[embedded.size()];
        // equal words first, so that a near word cannot take the place an equal one needs
        for (int i = 0; i < embedded.size(); i++) {
            matchedAt[i] = -1;
            for (int j = 0; j < source.size(); j++) {
                if (!used[j] && embedded.get(i).equals(source.get(j))) {
                    used[j] = true;
                    matchedAt[i] = j;
                    break;
                }
            }
        }
        for (int i = 0; i < embedded.size(); i++) {
            if (matchedAt[i] >= 0) {
                continue;
            }
            boolean last = i == embedded.size() - 1;
            for (int j = 0; j < source.size(); j++) {
                if (!used[j] && nearWord(embedded.get(i), source.get(j), last)) {
                    used[j] = true;
                    matchedAt[i] = j;
                    break;
                }
            }
        }
        // a cut that left one letter of the last word ("decade injectors w"): read only at its own place, after
        // words that all stand at theirs, since one letter anywhere else says nothing
        int last = embedded.size() - 1;
        if (last > 0 && matchedAt[last] < 0 && embedded.get(last).length() == 1 && last < source.size()
                && !used[last] && source.get(last).startsWith(embedded.get(last)) && isBeginning(matchedAt, last)) {
            used[last] = true;
            matchedAt[last] = last;
        }
        // a word garbled past a near miss ("p7blidh", "Jze" for "Jade") still stands where its source word stood:
        // read so only among words already matched around it, or any short text would find a partner somewhere
        int anchored = 0;
        for (int m : matchedAt) {
            anchored += m >= 0 ? 1 : 0;
        }
        for (int i = 0; i < embedded.size() && anchored >= MIN_GARBLED_ANCHORS; i++) {
            if (matchedAt[i] >= 0) {
                continue;
            }
            for (int j = Math.max(0, i - GARBLED_SHIFT); j < Math.min(source.size(), i + GARBLED_SHIFT + 1); j++) {
                if (!used[j] && garbled(embedded.get(i), source.get(j))) {
                    used[j] = true;
                    matchedAt[i] = j;
                    break;
                }
            }
        }
        double matchedWeight = 0;
        double embeddedWeight = 0;
        double matchedContent = 0;
        boolean addedContent = false;
        for (int i = 0; i < embedded.size(); i++) {
            double w = weight(embedded.get(i));
            embeddedWeight += w;
            if (matchedAt[i] >= 0) {
                matchedWeight += w;
                matchedContent += w == 1 ? 1 : 0;
            } else if (w == 1) {
                addedContent = true;
            }
        }
        boolean beginning = isBeginning(matchedAt, embedded.size());
        if (matchedContent == 0 && !(beginning && embedded.size() >= 2)) {
            // function words link nothing, except as the start of the source: a question cut before its first
            // content word ("who is", "what is not a") still is that question's beginning
            return 0;
        }
        double sourceWeight = 0;
        double sourceMatched = 0;
        boolean lostContent = false;
        for (int j = 0; j < source.size(); j++) {
            double w = weight(source.get(j));
            sourceWeight += w;
            sourceMatched += used[j] ? w : 0;
            lostContent |= !used[j] && w == 1;
        }
        double precision = matchedWeight / embeddedWeight;
        double recall = sourceMatched / sourceWeight;
        if (beginning) {
            // a cut at a token budget keeps the source's first words in order: what it lost is the cut, not a sign
            // that the text came from elsewhere
            recall = 0.5 + 0.5 * recall;
        }
        double f = 2 * precision * recall / (precision + recall);
        // words added and words lost at once is another text, not a damaged one: "what is the fact about topic
        // beta?" against "... topic alpha?" (templated questions differ by their entity). A fault adds or loses,
        // and a misspelling is a near word, not a lost one
        return addedContent && lostContent ? f * SUBSTITUTED : f;
    }

    /** Every embedded word matched the source word at its own position: the embedded text is the source's start. */
    private static boolean isBeginning(int[] matchedAt, int n) {
        for (int i = 0; i < n; i++) {
            if (matchedAt[i] != i) {
                return false;
            }
        }
        return true;
    }

    /**
     * The same word misspelt (one edit in a three-letter word, two from four letters on; keyboard neighbours are one
     * substitution),
     * in another form, or, for the last word, cut short.
     */
    private static boolean nearWord(String a, String b, boolean last) {
        if (last && a.length() >= 2 && b.startsWith(a)) {
            return true;
        }
        if (Terms.sameWord(a, b)) {
            return true;
        }
        int shorter = Math.min(a.length(), b.length());
        if (shorter < 3) {
            return false;
        }
        // two edits from four letters on, as the embed rule checks count a near miss: a swapped pair ("naem",
        // "wrod") is two edits, and typos hit short words as often as long ones
        int limit = shorter < 4 ? 1 : 2;
        return Terms.editDistance(a, b, limit) <= limit;
    }

    /**
     * The same content word garbled by several slips: the same first letter, and at most half the longer word's
     * letters edited. "beta" and "alpha", two entities of one template, share neither; a word shifted by an insertion or two
     * is still found near its place ({@link #GARBLED_SHIFT}).
     */
    private static boolean garbled(String a, String b) {
        if (a.length() < 3 || b.length() < 3 || a.charAt(0) != b.charAt(0) || !Terms.isContentWord(a)
                || !Terms.isContentWord(b)) {
            return false;
        }
        int limit = (Math.max(a.length(), b.length()) + 1) / 2;
        return Terms.editDistance(a, b, limit) <= limit;
    }

    private static double weight(String word) {
        return Terms.isContentWord(word) ? 1 : FUNCTION_WORD;
    }

    /**
     * The words of the texts a call holds that what its run embedded can come from: its question, its rewrite's
     * queries, and the reranker's query (the rewrite or the question, sent on unharmed when the embedding went wrong).
     */
    static List<List<String>> sourceWords(CallSignals call) {
        List<List<String>> out = new ArrayList<>();
        if (call.failed()) {
            return out;
        }
        List<String> texts = new ArrayList<>();
        if (call.question != null) {
            texts.add(call.question);
        }
        texts.addAll(call.producedQueries);
        if (call.stage == Stage.RERANK) {
            texts.addAll(call.consumedQueries);
        }
        for (String t : texts) {
            List<String> words = Terms.words(t);
            if (!words.isEmpty() && !out.contains(words)) {
                out.add(words);
            }
        }
        return out;
    }

    /** The best score of any text an embedding call sent against any source of some calls. */
    /** Whether one of the two is an embedding call whose text follows the other's question, rewrite or query. */
    static boolean embeddedFrom(CallSignals a, CallSignals b) {
        if (a.stage == Stage.EMBED && !a.failed()) {
            return best(a, List.of(b)) >= FLOOR;
        }
        return b.stage == Stage.EMBED && !b.failed() && best(b, List.of(a)) >= FLOOR;
    }

    static double best(CallSignals embed, Iterable<CallSignals> calls) {
        double best = 0;
        for (Embedded text : embed.embedded()) {
            for (CallSignals c : calls) {
                for (List<String> source : c.sourceWords()) {
                    best = Math.max(best, score(text, source));
                    if (best >= 1) {
                        return best;
                    }
                }
            }
        }
        return best;
    }
}
