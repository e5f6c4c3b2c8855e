package io.raglog.checks;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's features being filled in: starts with every feature of the list missing (null) and only accepts names of
 * the list, so a typo fails loudly instead of adding a feature no model knows. Not thread-safe: one per run.
 */
public final class FeatureVector {

    private final Map<String, Double> values;

    public FeatureVector() {
        List<String> names = FeatureList.names();
        // sized for every feature up front: grown from the default, its discarded tables were a sixth of its cost
        values = new LinkedHashMap<>((int) (names.size() / 0.75f) + 1);
        for (String name : names) {
            values.put(name, null);
        }
    }

    public static FeatureVector of(Map<String, Double> known) {
        FeatureVector v = new FeatureVector();
        known.forEach(v::put);
        return v;
    }

    public FeatureVector put(String name, Double value) {
        FeatureList.get(name);
        values.put(name, value == null || value.isNaN() || value.isInfinite() ? null : value);
        return this;
    }

    public FeatureVector put(String name, double value) {
        return put(name, Double.valueOf(value));
    }

    public FeatureVector put(String name, boolean flag) {
        return put(name, flag ? 1.0 : 0.0);
    }

    public Double get(String name) {
        FeatureList.get(name);
        return values.get(name);
    }

    /** Only the values that are set: what crosses the operator boundary between the cheap and the LLM checks. */
    public Map<String, Double> known() {
        Map<String, Double> out = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            if (v != null) {
                out.put(k, v);
            }
        });
        return out;
    }

    /** All features in list order, missing ones as null. */
    public Map<String, Double> asMap() {
        return Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }
}
