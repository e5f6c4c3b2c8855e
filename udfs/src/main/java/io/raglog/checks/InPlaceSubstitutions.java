package io.raglog.checks;

import io.raglog.checks.ContentWords.Substitution;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Question words a rewrite replaced where they stood: the rewrite keeps the words around one and writes another in
 * its place ("the pump <b>while</b> the work fluid" against "pump <b>curvature</b> work fluid"). Read against the
 * question word by word, in order, not as two sets of words: a set sees nothing lost when the replaced word also
 * stands elsewhere in the question ("a barrier in <i>insects</i> that protects the insect"), when it is a small word
 * ("<i>more</i> steam pressure", "<i>after</i> 2007") or when the replacement is its opposite, which an embedding
 * space puts beside it ("first" and "last" are used alike). {@link ContentWords#substitutions} finds the rest.
 *
 * <p>The two texts are aligned on their longest common run of words in any form ({@link Terms#sameWord}); between two
 * aligned words (or an aligned word and an end) the question's words and the rewrite's are a gap. A gap is a
 * substitution when the rewrite's side writes a word the question has nowhere (a moved word is not a replacement),
 * and that word is an opposite of a question word of the gap ({@link Antonyms}), or the gap is one content word on
 * each side that mean different things (word similarity under {@link ContentWords#VARIANT}). Filler the rewriter
 * dropped or added ("what", "the", "Tell me") is not meaningful; a paraphrase that says "the reason" for "why" is two
 * words for none and is no substitution.
 */
public final class InPlaceSubstitutions {

    private InPlaceSubstitutions() {}

    /** How many of the substitutions write a question word's opposite ({@link Antonyms}). */
    public static int opposites(List<Substitution> found) {
        int n = 0;
        for (Substitution sub : found) {
            if (Antonyms.opposite(sub.asked(), sub.written())) {
                n++;
            }
        }
        return n;
    }

    /** Every question word some rewrite replaced in place, each pair of words once. */
    public static List<Substitution> of(String question, List<String> rewrites, Embedder embedder) {
        List<String> asked = Terms.words(question);
        if (asked.isEmpty() || rewrites.isEmpty()) {
            return List.of();
        }
        Set<String> askedContent = new LinkedHashSet<>();
        Terms.addContentWords(question, askedContent);
        List<Substitution> found = new ArrayList<>();
        List<String[]> toCompare = new ArrayList<>();
        for (String rewrite : rewrites) {
            List<String> written = Terms.words(ContentWords.restatement(askedContent, rewrite));
            for (WordAlignment.Gap gap : gaps(asked, written)) {
                judge(gap, asked, written, found, toCompare);
            }
        }
        if (!toCompare.isEmpty()) {
            found.addAll(unlike(toCompare, embedder));
        }
        return List.copyOf(new LinkedHashSet<>(found));
    }

    /** The pairs whose words mean different things: one batch of the model for all of them. */
    private static List<Substitution> unlike(List<String[]> pairs, Embedder embedder) {
        List<String> words = new ArrayList<>(pairs.size() * 2);
        for (String[] pair : pairs) {
            words.add(pair[0]);
            words.add(pair[1]);
        }
        List<float[]> vectors = embedder.embed(words);
        List<Substitution> out = new ArrayList<>();
        for (int i = 0; i < pairs.size(); i++) {
            double similarity = Embedder.cosine(vectors.get(2 * i), vectors.get(2 * i + 1));
            if (similarity < ContentWords.VARIANT) {
                out.add(new Substitution(pairs.get(i)[0], pairs.get(i)[1], similarity));
            }
        }
        return out;
    }

    /**
     * Of a gap between the question's words ({@code a}) and the rewrite's ({@code b}): adds an opposite written for a
     * question word to {@code found}; else, when the gap is one content word on each side, the pair to
     * {@code toCompare} by meaning ("how many" written "number of" is no pair: "many" is a small word, read only for
     * its opposite).
     */
    private static void judge(WordAlignment.Gap gap, List<String> asked, List<String> written,
            List<Substitution> found, List<String[]> toCompare) {
        List<String> replaced = new ArrayList<>(2);
        for (int i = gap.aFrom(); i < gap.aTo(); i++) {
            if (meaningful(asked.get(i))) {
                replaced.add(asked.get(i));
            }
        }
        List<String> replacing = new ArrayList<>(2);
        for (int j = gap.bFrom(); j < gap.bTo(); j++) {
            String word = written.get(j);
            if (meaningful(word) && !formIn(word, asked)) {
                replacing.add(word);
            }
        }
        if (replaced.isEmpty() || replacing.isEmpty()) {
            return;
        }
        boolean opposed = false;
        for (String a : replaced) {
            for (String w : replacing) {
                if (Antonyms.opposite(a, w)) {
                    found.add(new Substitution(a, w, 1.0)); // certainly written for it
                    opposed = true;
                }
            }
        }
        if (!opposed) {
            String a = theOnlyContentWord(replaced);
            String w = theOnlyContentWord(replacing);
            if (a != null && w != null) {
                toCompare.add(new String[] {a, w});
            }
        }
    }

    /** The one content word among the words, or null when there are none or several. */
    private static String theOnlyContentWord(List<String> words) {
        String only = null;
        for (String word : words) {
            if (Terms.isContentWord(word)) {
                if (only != null) {
                    return null;
                }
                only = word;
            }
        }
        return only;
    }

    /** A content word, or a small word that has an opposite ("more", "after"): what a replacement can change. */
    private static boolean meaningful(String lowerWord) {
        return Terms.isContentWord(lowerWord) || Antonyms.hasOpposite(lowerWord);
    }

    private static boolean formIn(String word, List<String> words) {
        for (String other : words) {
            if (Terms.sameWord(word, other)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The gaps of the two word lists' longest common subsequence of words in any form ({@link WordAlignment}), in
     * order, the ends included, where both sides wrote something (a word only added or only left out is no
     * replacement).
     */
    static List<WordAlignment.Gap> gaps(List<String> asked, List<String> written) {
        return WordAlignment.of(asked, written).gaps().stream().filter(WordAlignment.Gap::twoSided).toList();
    }
}
