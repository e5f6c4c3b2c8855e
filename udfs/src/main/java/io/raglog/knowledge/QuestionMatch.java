package io.raglog.knowledge;

import io.raglog.checks.Terms;
import java.util.Map;
import java.util.Set;

/**
 * How well a passage matches a question: the share of the question's words (stemmed content words) it holds, each
 * word weighted by how rare it is among the known passages (BM25's inverse document frequency), so that holding
 * "Ming" counts for more than holding "dynasty". The same measure scores what a run was handed and what it was not,
 * which is what makes the two comparable.
 */
final class QuestionMatch {

    private final double total;
    /** The question's words and their weights, in the map's order: every match adds them in this order. */
    private final String[] words;
    private final double[] wordWeights;

    /** @param weights each question word's weight (every word of the question, known or not) */
    QuestionMatch(Map<String, Double> weights) {
        this.total = weights.values().stream().mapToDouble(Double::doubleValue).sum();
        this.words = new String[weights.size()];
        this.wordWeights = new double[weights.size()];
        int i = 0;
        for (Map.Entry<String, Double> e : weights.entrySet()) {
            words[i] = e.getKey();
            wordWeights[i++] = e.getValue();
        }
    }

    /** The distinct stems of a text's content words: what a question asks about, or what a passage holds. */
    static Set<String> words(String text) {
        return Terms.contentStems(text);
    }

    /** Inverse document frequency of a word held by {@code holding} of {@code known} passages. */
    static double weight(long holding, long known) {
        return Math.log(1.0 + (known - holding + 0.5) / (holding + 0.5));
    }

    /** The passage's match in [0, 1]: the weighted share of the question's words among its words. */
    double of(Set<String> passageWords) {
        if (total <= 0) {
            return 0.0;
        }
        double held = 0;
        for (int i = 0; i < words.length; i++) {
            if (passageWords.contains(words[i])) {
                held += wordWeights[i];
            }
        }
        return held / total;
    }

    /**
     * A known passage's match, read from the index's words for it: the very sum {@link #of} makes from its text's
     * words, in the same order, so the same double.
     *
     * @param wordNumbers the question's words by their {@link WordIndex#wordNumber numbers} in the index, in the order
     *     of the weights this match was made from (-1 for a word none holds)
     */
    double ofKnown(WordIndex index, int[] wordNumbers, int passage) {
        if (total <= 0) {
            return 0.0;
        }
        double held = 0;
        for (int i = 0; i < words.length; i++) {
            if (index.holds(passage, wordNumbers[i])) {
                held += wordWeights[i];
            }
        }
        return held / total;
    }
}
