package io.raglog.simulator.text;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The simulated cross-encoder: BM25 of the query against each passage plus a bonus for query word pairs found side by
 * side, which is what lets it disagree with the embedder's order the way real rerankers do.
 */
public final class Bm25 {

    private static final double K1 = 1.2;
    private static final double B = 0.75;
    private static final double PAIR_BONUS = 0.6;

    private final TermStats stats;

    public Bm25(TermStats stats) {
        this.stats = stats;
    }

    /** Raw scores, one per passage, in passage order. */
    public double[] scores(String query, List<String> passages) {
        Set<String> queryStems = new LinkedHashSet<>(Words.contentStems(query));
        List<String> queryOrder = Words.contentStems(query);
        double[] out = new double[passages.size()];
        double avgLength = 0;
        List<List<String>> stemmed = new java.util.ArrayList<>();
        for (String p : passages) {
            List<String> stems = Words.contentStems(p);
            stemmed.add(stems);
            avgLength += stems.size();
        }
        avgLength = Math.max(1, avgLength / Math.max(1, passages.size()));
        for (int i = 0; i < passages.size(); i++) {
            List<String> stems = stemmed.get(i);
            Map<String, Integer> tf = new HashMap<>();
            for (String s : stems) {
                tf.merge(s, 1, Integer::sum);
            }
            double score = 0;
            for (String q : queryStems) {
                int f = tf.getOrDefault(q, 0);
                if (f > 0) {
                    score += stats.idf(q) * f * (K1 + 1) / (f + K1 * (1 - B + B * stems.size() / avgLength));
                }
            }
            for (int j = 0; j + 1 < queryOrder.size(); j++) {
                if (adjacent(stems, queryOrder.get(j), queryOrder.get(j + 1))) {
                    score += PAIR_BONUS * Math.min(stats.idf(queryOrder.get(j)), stats.idf(queryOrder.get(j + 1)));
                }
            }
            out[i] = score;
        }
        return out;
    }

    private static boolean adjacent(List<String> stems, String a, String b) {
        for (int k = 0; k + 1 < stems.size(); k++) {
            if (stems.get(k).equals(a) && stems.get(k + 1).equals(b)) {
                return true;
            }
        }
        return false;
    }
}
