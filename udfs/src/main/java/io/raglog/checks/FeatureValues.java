package io.raglog.checks;

import java.io.Serializable;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * A run's features as {@code RunFeatures.features} holds them, every feature of the current list by name in list
 * order (null = missing), kept as the list's names, shared by every run, and one value per name. It reads as the
 * {@code LinkedHashMap} it replaces did (order, {@code get}, {@code equals} and {@code hashCode} with any map of the
 * same entries, JSON) and cannot be changed. A map per run of ~100 entries and their table was most of what reading a
 * run's scoring input allocated between the checks' and the scoring tasks (issue #27); this one is an array.
 */
public final class FeatureValues extends AbstractMap<String, Double> implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The current list's names in order, and each one's place: the list is fixed once loaded. */
    private static final List<String> NAMES = FeatureList.names();
    private static final Map<String, Integer> PLACES = places(NAMES);

    private final Double[] values;

    private FeatureValues(Double[] values) {
        if (values.length != NAMES.size()) {
            throw new IllegalArgumentException("feature list " + FeatureList.VERSION + " has " + NAMES.size()
                    + " features, not " + values.length);
        }
        this.values = values;
    }

    /** The values of the current list's features in its order, null where missing; the array is the map's own now. */
    public static FeatureValues ofCurrentList(Double[] values) {
        return new FeatureValues(values);
    }

    /** The current list's names in order: the keys of every {@code FeatureValues}. */
    public static List<String> names() {
        return NAMES;
    }

    /** Whether {@code features} holds exactly the current list's names, in its order (its values may be anything). */
    public static boolean followsCurrentList(Map<String, ?> features) {
        if (features instanceof FeatureValues) {
            return true;
        }
        if (features.size() != NAMES.size()) {
            return false;
        }
        int i = 0;
        for (String name : features.keySet()) {
            if (!NAMES.get(i++).equals(name)) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, Integer> places(List<String> names) {
        Map<String, Integer> places = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            places.put(names.get(i), i);
        }
        return Map.copyOf(places);
    }

    /** The value of the list's {@code i}th feature, null when missing. */
    public Double valueAt(int i) {
        return values[i];
    }

    @Override
    public int size() {
        return values.length;
    }

    @Override
    public boolean isEmpty() {
        return values.length == 0;
    }

    @Override
    public boolean containsKey(Object name) {
        return PLACES.containsKey(name);
    }

    @Override
    public Double get(Object name) {
        Integer place = name == null ? null : PLACES.get(name);
        return place == null ? null : values[place];
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super Double> action) {
        for (int i = 0; i < values.length; i++) {
            action.accept(NAMES.get(i), values[i]);
        }
    }

    @Override
    public Set<Entry<String, Double>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return values.length;
            }

            @Override
            public Iterator<Entry<String, Double>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < values.length;
                    }

                    @Override
                    public Entry<String, Double> next() {
                        if (next >= values.length) {
                            throw new NoSuchElementException();
                        }
                        int i = next++;
                        return new SimpleImmutableEntry<>(NAMES.get(i), values[i]);
                    }
                };
            }
        };
    }

    @Override
    public boolean equals(Object o) {
        if (o instanceof FeatureValues other) {
            return Arrays.equals(values, other.values);
        }
        return super.equals(o);
    }

    @Override
    public int hashCode() {
        return super.hashCode(); // a LinkedHashMap of the same entries has the same
    }
}
