package io.raglog.checks;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's features being filled in: starts with every feature of the list missing (null) and only accepts names of
 * the list, so a typo fails loudly instead of adding a feature no model knows. Not thread-safe: one per run.
 */
public final class FeatureVector {

    /** The feature list's names in its order, and each one's place there: the list is fixed once loaded. */
    private static final List<String> NAMES = FeatureList.names();
    private static final Map<String, Integer> PLACES = places(NAMES);

    /**
     * Each feature's value by its place in the list; null while missing. An array, not a map holding every name with
     * a null: one vector is made per run, and the map's entries were a twentieth of what the rule checks allocated.
     */
    private final Double[] values = new Double[NAMES.size()];

    public FeatureVector() {}

    private static Map<String, Integer> places(List<String> names) {
        Map<String, Integer> places = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            places.put(names.get(i), i);
        }
        return Map.copyOf(places);
    }

    /** Where a feature's value goes; a name not in the list fails loudly. */
    private static int place(String name) {
        Integer place = PLACES.get(name);
        if (place == null) {
            FeatureList.get(name); // throws, naming the list's version
            throw new IllegalArgumentException("not in the feature list: " + name);
        }
        return place;
    }

    public static FeatureVector of(Map<String, Double> known) {
        FeatureVector v = new FeatureVector();
        known.forEach(v::put);
        return v;
    }

    public FeatureVector put(String name, Double value) {
        values[place(name)] = value == null || value.isNaN() || value.isInfinite() ? null : value;
        return this;
    }

    public FeatureVector put(String name, double value) {
        return put(name, Double.valueOf(value));
    }

    public FeatureVector put(String name, boolean flag) {
        return put(name, flag ? 1.0 : 0.0);
    }

    public Double get(String name) {
        return values[place(name)];
    }

    /**
     * Only the values that are set, in list order: what crosses the operator boundary between the cheap and the LLM
     * checks. A copy of the values by place ({@link KnownFeatures}) rather than a {@code LinkedHashMap} of them: a
     * run's rules-only cheap checks and its checked run written as JSON allocated 35.9 instead of 39.7 KB a run, 1.4 KB
     * of it this and the rest the rule checks' own (ruleChecks, JMH) (measured on the 200 simulated runs with the
     * thread's allocated bytes, old and new alternated).
     */
    public Map<String, Double> known() {
        return new KnownFeatures(NAMES, PLACES, values.clone());
    }

    /** All features in list order, missing ones as null; cannot be changed ({@link FeatureValues}). */
    public Map<String, Double> asMap() {
        return FeatureValues.ofCurrentList(values); // copied: later puts do not change it
    }
}
