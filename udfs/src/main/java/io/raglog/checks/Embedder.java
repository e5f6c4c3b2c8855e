package io.raglog.checks;

import java.util.List;

/** Turns texts into unit-length vectors, so cosine similarity is a dot product. Implementations are thread-safe. */
public interface Embedder {

    /** Names the model, so features can say which embedding model produced them. */
    String id();

    int dimensions();

    /** One unit vector per text, in order. Texts of any length: long ones are windowed, never silently cut. */
    List<float[]> embed(List<String> texts);

    static double cosine(float[] a, float[] b) {
        double dot = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
        }
        return dot;
    }
}
