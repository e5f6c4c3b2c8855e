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

    /** Fixed, like a model's weights: the rotation must not depend on the simulation seed. */
    private static final long ROTATION_SEED = 0x5EED_0F_E3BEDL;

    private final TermStats stats;
    private final int dimensions;
    /** Columns of a random orthonormal matrix: spreads the sparse hashed features over every dimension. */
    private final double[][] rotation;

    public HashedEmbedder(TermStats stats, int dimensions) {
        this.stats = stats;
        this.dimensions = dimensions;
        this.rotation = orthonormalColumns(dimensions, new java.util.SplittableRandom(ROTATION_SEED));
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
        // A rotation keeps every cosine but makes the vector dense, as real embeddings are.
        double[] dense = new double[dimensions];
        for (int j = 0; j < dimensions; j++) {
            if (acc[j] != 0) {
                double[] column = rotation[j];
                for (int i = 0; i < dimensions; i++) {
                    dense[i] += acc[j] * column[i];
                }
            }
        }
        double norm = 0;
        for (double v : dense) {
            norm += v * v;
        }
        float[] out = new float[dimensions];
        if (norm == 0) {
            // An empty text still gets a valid unit vector, as real models return one for "".
            double[] first = rotation[0];
            for (int i = 0; i < dimensions; i++) {
                out[i] = (float) first[i];
            }
            return out;
        }
        double inv = 1 / Math.sqrt(norm);
        for (int i = 0; i < dimensions; i++) {
            out[i] = (float) (dense[i] * inv);
        }
        return out;
    }

    /** Gram-Schmidt over Gaussian columns. */
    private static double[][] orthonormalColumns(int n, java.util.SplittableRandom rng) {
        double[][] q = new double[n][n];
        for (int j = 0; j < n; j++) {
            double[] v = q[j];
            for (int i = 0; i < n; i++) {
                double u1 = 1 - rng.nextDouble();
                v[i] = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * rng.nextDouble());
            }
            for (int k = 0; k < j; k++) {
                double dot = 0;
                for (int i = 0; i < n; i++) {
                    dot += v[i] * q[k][i];
                }
                for (int i = 0; i < n; i++) {
                    v[i] -= dot * q[k][i];
                }
            }
            double norm = 0;
            for (double x : v) {
                norm += x * x;
            }
            double inv = 1 / Math.sqrt(norm);
            for (int i = 0; i < n; i++) {
                v[i] *= inv;
            }
        }
        return q;
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
