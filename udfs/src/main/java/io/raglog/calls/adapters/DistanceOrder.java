package io.raglog.calls.adapters;

/**
 * Scores, higher-is-closer as every store's passages carry them, from the numbers a store returns as "distance" when
 * the call does not say what they are: Vertex AI Vector Search's and Milvus's are a distance or a similarity by the
 * index's metric, which a search need not name. The order tells: numbers that grow down the list (closest first) are
 * distances (squared L2, cosine distance), made {@code 1 - distance} as Chroma's are; numbers that shrink are
 * similarities (cosine, a dot product), kept. A lone hit's number is kept as it is.
 */
final class DistanceOrder {

    private DistanceOrder() {}

    /** The scores for {@code values}, read as the list's order tells. */
    static double[] scores(double[] values) {
        boolean growing = values.length > 1 && values[0] < values[values.length - 1];
        return growing ? oneMinus(values) : values.clone();
    }

    /** Distances made scores, as Chroma's and an L2 metric's are. */
    static double[] oneMinus(double[] distances) {
        double[] scores = new double[distances.length];
        for (int i = 0; i < distances.length; i++) {
            scores[i] = 1.0 - distances[i];
        }
        return scores;
    }
}
