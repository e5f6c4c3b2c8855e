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

    private final Map<String, Double> weights;
    private final double total;

    /** @param weights each question word's weight (every word of the question, known or not) */
    QuestionMatch(Map<String, Double> weights) {
        this.weights = weights;
        this.total = weights.values().stream().mapToDouble(Double::doubleValue).sum();
    }

    /** The distinct stems of a text's content words: what a question asks about, or what a passage holds. */
    static Set<String> words(String text) {
        return Terms.contentStems(text);
    }

    /** Inverse document frequency of a word held by {@code holding} of {@code known} passages. */
    static double weight(long holding, long known) {
        return Math.log(1.0 + (known - holding + 0.5) / (holding + 0.5));
    }

    Set<String> questionWords() {
        return weights.keySet();
    }

    double weight(String word) {
        return weights.getOrDefault(word, 0.0);
    }

    /** The match of a passage whose question words weigh {@code held} together: an upper bound from a partial sum. */
    double bound(double held) {
        return total <= 0 ? 0.0 : held / total;
    }

    /** The passage's match in [0, 1]: the weighted share of the question's words among its words. */
    double of(Set<String> passageWords) {
        if (total <= 0) {
            return 0.0;
        }
        double held = 0;
        for (Map.Entry<String, Double> e : weights.entrySet()) {
            if (passageWords.contains(e.getKey())) {
                held += e.getValue();
            }
        }
        return held / total;
    }
}
