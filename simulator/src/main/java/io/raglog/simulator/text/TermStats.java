package io.raglog.simulator.text;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Document frequencies of content stems over the corpus: the inverse-document-frequency weights both the embedder and
 * the reranker use, so that "Normandy" counts for more than "located".
 */
public final class TermStats {

    private final Map<String, Integer> documentFrequency = new HashMap<>();
    private final int documents;
    private final double maxIdf;

    public TermStats(List<String> texts) {
        for (String text : texts) {
            Set<String> seen = new HashSet<>(Words.contentStems(text));
            for (String stem : seen) {
                documentFrequency.merge(stem, 1, Integer::sum);
            }
        }
        this.documents = Math.max(1, texts.size());
        this.maxIdf = idfFor(0);
    }

    /** BM25's idf, floored at a small positive value so common words still count a little. */
    public double idf(String stem) {
        Integer df = documentFrequency.get(stem);
        return df == null ? maxIdf : idfFor(df);
    }

    private double idfFor(int df) {
        return Math.max(0.05, Math.log(1 + (documents - df + 0.5) / (df + 0.5)));
    }
}
