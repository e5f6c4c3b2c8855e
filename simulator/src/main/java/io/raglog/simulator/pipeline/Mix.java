package io.raglog.simulator.pipeline;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/** Weighted choices, drawn on a run's own random stream (insertion order, so draws replay per seed). */
public final class Mix<T> {

    private final List<T> items;
    private final double[] cumulative;

    private Mix(Map<T, Double> weights) {
        this.items = new ArrayList<>(weights.keySet());
        this.cumulative = new double[items.size()];
        double total = 0;
        for (int i = 0; i < items.size(); i++) {
            double w = weights.get(items.get(i));
            if (w < 0) {
                throw new IllegalArgumentException("negative weight for " + items.get(i));
            }
            total += w;
            cumulative[i] = total;
        }
        if (total <= 0) {
            throw new IllegalArgumentException("a mix needs a positive weight");
        }
        for (int i = 0; i < cumulative.length; i++) {
            cumulative[i] /= total;
        }
    }

    /** Alternating items and weights: {@code Mix.of(A, 0.5, B, 0.5)}. */
    @SuppressWarnings("unchecked")
    public static <T> Mix<T> of(Object... itemsAndWeights) {
        Map<T, Double> weights = new LinkedHashMap<>();
        for (int i = 0; i < itemsAndWeights.length; i += 2) {
            weights.put((T) itemsAndWeights[i], ((Number) itemsAndWeights[i + 1]).doubleValue());
        }
        return new Mix<>(weights);
    }

    public T draw(SplittableRandom rng) {
        double r = rng.nextDouble();
        for (int i = 0; i < cumulative.length; i++) {
            if (r < cumulative[i]) {
                return items.get(i);
            }
        }
        return items.get(items.size() - 1);
    }

    public List<T> items() {
        return List.copyOf(items);
    }
}
