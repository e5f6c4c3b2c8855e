package io.raglog.simulator.text;

import java.util.List;

/**
 * The simulated pipelines' embedding model: an idf-weighted bag of word stems and character trigrams, hashed with
 * signs into a fixed number of dimensions and L2-normalised. Deterministic (no model weights, no randomness), cheap,
 * and it behaves like a real embedder where it matters here: shared rare words pull texts together, a typo costs
 * some similarity rather than all of it, and unrelated words dilute the query.
 */
public final class HashedEmbedder {

    public static final int DEFAULT_DIMENSIONS = 384;

    /** Trigrams carry less weight than whole words: they are what keeps a misspelt word partly recognisable. */
    private static final double TRIGRAM_WEIGHT = 0.35;

    private final TermStats stats;
    private final int dimensions;

    public HashedEmbedder(TermStats stats, int dimensions) {
        this.stats = stats;
        this.dimensions = dimensions;
    }

    public int dimensions() {
        return dimensions;
    }

    public float[] embed(String text) {
        double[] acc = new double[dimensions];
        List<String> stems = Words.contentStems(text);
        for (String stem : stems) {
            double idf = stats.idf(stem);
            add(acc, "w:" + stem, idf);
            String padded = "<" + stem + ">";
            int grams = padded.length() - 2;
            double gramWeight = TRIGRAM_WEIGHT * idf / Math.sqrt(grams);
            for (int i = 0; i < grams; i++) {
                add(acc, "g:" + padded.substring(i, i + 3), gramWeight);
            }
        }
        double norm = 0;
        for (double v : acc) {
            norm += v * v;
        }
        float[] out = new float[dimensions];
        if (norm == 0) {
            // An empty text still gets a valid unit vector, as real models return one for "".
            out[0] = 1f;
            return out;
        }
        double inv = 1 / Math.sqrt(norm);
        for (int i = 0; i < dimensions; i++) {
            out[i] = (float) (acc[i] * inv);
        }
        return out;
    }

    private void add(double[] acc, String feature, double weight) {
        long h = fnv1a(feature);
        int index = (int) Long.remainderUnsigned(h >>> 1, dimensions);
        acc[index] += (h & 1) == 0 ? weight : -weight;
    }

    /** FNV-1a over the UTF-16 units: stable across JVMs and runs, unlike identity hash codes. */
    static long fnv1a(String s) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < s.length(); i++) {
            h ^= s.charAt(i);
            h *= 0x100000001b3L;
        }
        return h ^ (h >>> 29);
    }

    public static double cosine(float[] a, float[] b) {
        double dot = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
        }
        return dot;
    }
}
