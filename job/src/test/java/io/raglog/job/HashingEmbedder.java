package io.raglog.job;

import io.raglog.checks.Embedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A deterministic stand-in for the model: each lower-cased word adds to one of 64 dimensions by its hash. Enough
 * for the vector checks and the offline judge to compute real, text-dependent similarities without a model.
 */
public final class HashingEmbedder implements Embedder {

    @Override
    public String id() {
        return "hashing-64";
    }

    @Override
    public int dimensions() {
        return 64;
    }

    @Override
    public List<float[]> embed(List<String> texts) {
        List<float[]> out = new ArrayList<>(texts.size());
        for (String text : texts) {
            float[] v = new float[64];
            for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
                if (!word.isEmpty()) {
                    v[Math.floorMod(word.hashCode(), 64)] += 1;
                }
            }
            double norm = 0;
            for (float x : v) {
                norm += x * x;
            }
            if (norm == 0) {
                v[0] = 1;
                norm = 1;
            }
            float scale = (float) (1 / Math.sqrt(norm));
            for (int i = 0; i < v.length; i++) {
                v[i] *= scale;
            }
            out.add(v);
        }
        return out;
    }
}
