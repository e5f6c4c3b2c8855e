package io.raglog.checks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The content words a rewrite lost and the ones it added, each compared in any form ({@link Terms#sameWord}): a
 * keyword rewrite drops question words and fillers and nominalises verbs, which is no loss; a question word with no
 * form left is. A lost word next to an added one is a candidate substitution ("start" became "end").
 *
 * <p>A rewrite is compared by its {@link #restatement}: a hypothetical answer (HyDE) restates the question and then
 * writes background around it, and the background repeats the question's words. Read whole, "the agents detected by
 * the refer system … The immune system is …" lost nothing; its restatement lost "immune" for "refer".
 */
public record ContentWords(List<String> lost, List<String> added) {

    /** Content words a sentence needs to stand as a sentence of a passage, not a piece of an abbreviation ("U.S."). */
    static final int SENTENCE_WORDS = 3;

    public static ContentWords of(String question, List<String> rewrites) {
        Set<String> asked = new LinkedHashSet<>();
        Terms.addContentWords(question, asked);
        Set<String> written = new LinkedHashSet<>();
        rewrites.forEach(r -> Terms.addContentWords(restatement(asked, r), written));
        return new ContentWords(missing(asked, written), missing(written, asked));
    }

    /**
     * The part of a rewrite that says what the question asks: the rewrite itself, or, when it is a passage of several
     * sentences, the one that carries most of the question's distinct content words (the first of equals: a
     * background sentence that names the subject four times is not for that the restatement).
     */
    static String restatement(Set<String> asked, String rewrite) {
        List<String> sentences = AnswerSentences.sentences(rewrite);
        if (sentences.size() < 2) {
            return rewrite;
        }
        String best = null;
        int bestShared = -1;
        int whole = 0;
        for (String sentence : sentences) {
            Set<String> words = new LinkedHashSet<>();
            Terms.addContentWords(sentence, words);
            if (words.size() < SENTENCE_WORDS) {
                continue;
            }
            whole++;
            int shared = 0;
            for (String w : words) {
                shared += asked.contains(w) ? 1 : 0;
            }
            if (shared > bestShared) {
                bestShared = shared;
                best = sentence;
            }
        }
        return whole < 2 ? rewrite : best;
    }

    /**
     * A question word the rewrite replaced by one that means something else.
     *
     * @param similarity the two words' cosine: the nearer, the likelier the one was written for the other
     */
    public record Substitution(String asked, String written, double similarity) {}

    /**
     * What a reader is told: for each lost word the written word nearest it, in the order found. Several added words
     * are often paired with one lost word ("exactly" and "t'ien-tse" both for "shi"), and only one of them can have
     * been written for it; the count the checks report keeps every pair.
     */
    public static List<Substitution> nearestPerAskedWord(List<Substitution> found) {
        Map<String, Substitution> nearest = new LinkedHashMap<>();
        for (Substitution sub : found) {
            nearest.merge(sub.asked(), sub, (kept, other) -> other.similarity() > kept.similarity() ? other : kept);
        }
        return List.copyOf(nearest.values());
    }

    /**
     * What a reader is told of two findings of substitutions: {@link #nearestPerAskedWord} of the first, then of the
     * second for the question words the first did not name.
     */
    public static List<Substitution> toldOnce(List<Substitution> first, List<Substitution> second) {
        List<Substitution> out = new ArrayList<>(nearestPerAskedWord(first));
        Set<String> told = new LinkedHashSet<>();
        out.forEach(sub -> told.add(sub.asked()));
        for (Substitution sub : nearestPerAskedWord(second)) {
            if (told.add(sub.asked())) {
                out.add(sub);
            }
        }
        return out;
    }

    /** Word similarity from which an added word is a form of a lost one rather than a substitute. */
    public static final double VARIANT = 0.6;

    /**
     * Added words that mean none of the lost ones. A variant ("birth" for "born", "start" for "began") sits close to
     * the word it replaces in the embedding space; a substitute ("end" for "start", "census" for "viruses") does not.
     * Measured on word pairs with the bundled MiniLM: variants 0.68-0.82, substitutes 0.09-0.55.
     */
    public List<Substitution> substitutions(Embedder embedder) {
        if (lost.isEmpty() || added.isEmpty()) {
            return List.of();
        }
        List<String> all = new ArrayList<>(lost);
        all.addAll(added);
        List<float[]> vectors = embedder.embed(all);
        List<Substitution> out = new ArrayList<>();
        for (int i = 0; i < added.size(); i++) {
            float[] written = vectors.get(lost.size() + i);
            int closest = 0;
            double best = -2;
            for (int j = 0; j < lost.size(); j++) {
                double sim = Embedder.cosine(written, vectors.get(j));
                if (sim > best) {
                    best = sim;
                    closest = j;
                }
            }
            if (best < VARIANT) {
                out.add(new Substitution(lost.get(closest), added.get(i), best));
            }
        }
        return out;
    }

    private static List<String> missing(Set<String> from, Set<String> in) {
        List<String> out = new ArrayList<>();
        for (String w : from) {
            if (!formOrPartIn(w, in) && !joinedIn(w, in)) {
                out.add(w);
            }
        }
        return out;
    }

    /** Whether some word of {@code in} is a form of {@code w} or has it as a part (a loop: it runs per word pair). */
    private static boolean formOrPartIn(String w, Set<String> in) {
        for (String other : in) {
            if (Terms.sameWord(w, other) || partOf(w, other)) {
                return true;
            }
        }
        return false;
    }

    private static boolean partOf(String word, String joined) {
        if (!TextIndex.hasJoiner(joined)) {
            return word.equals(joined); // split would give the word whole; this runs for every pair of words
        }
        for (String part : Terms.WORD_JOINER.split(joined)) {
            if (part.equals(word)) {
                return true;
            }
        }
        return false;
    }

    /** "Phags-pa" against "phags" and "pa": a hyphenated word split by the rewrite is still there. */
    private static boolean joinedIn(String word, Set<String> in) {
        if (!TextIndex.hasJoiner(word)) {
            return false; // one part: split would give the word whole
        }
        String[] parts = Terms.WORD_JOINER.split(word);
        if (parts.length < 2) {
            return false;
        }
        for (String part : parts) {
            if (!part.isEmpty() && in.stream().noneMatch(other -> other.equals(part) || Terms.sameWord(part, other))) {
                return false;
            }
        }
        return true;
    }
}
