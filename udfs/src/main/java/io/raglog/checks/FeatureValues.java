package io.raglog.checks;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.io.Serializable;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * A run's features as {@code RunFeatures.features} holds them, every feature of the current list by name in list
 * order (null = missing), kept as the list's names, shared by every run, and an array of the values. It reads as the
 * {@code LinkedHashMap} it replaces did (order, {@code get}, {@code equals} and {@code hashCode} with any map of the
 * same entries, JSON) and cannot be changed. A map per run of 85 entries, their table and a boxed {@code Double} each
 * was most of what reading a run's scoring input allocated between the checks' and the scoring tasks (issue #27); this
 * one is a {@code double[]} and which are missing, and boxes a value only when it is read as one ({@link #get}).
 */
@JsonSerialize(using = FeatureValues.AsJsonObject.class)
public final class FeatureValues extends AbstractMap<String, Double> implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The current list's names in order, and each one's place: the list is fixed once loaded. */
    private static final List<String> NAMES = FeatureList.names();
    private static final Map<String, Integer> PLACES = places(NAMES);

    /** Each feature's value by its place in the list, its bits as given (NaN payloads too); 0 where missing. */
    private final double[] values;
    private final BitSet missing;

    private FeatureValues(double[] values, BitSet missing) {
        if (values.length != NAMES.size()) {
            throw new IllegalArgumentException("feature list " + FeatureList.VERSION + " has " + NAMES.size()
                    + " features, not " + values.length);
        }
        this.values = values;
        this.missing = missing;
    }

    /**
     * The values of the current list's features in its order, and the places of those missing; both are the map's
     * own now. What a missing place of {@code values} holds is not read.
     */
    public static FeatureValues ofCurrentList(double[] values, BitSet missing) {
        return new FeatureValues(values, missing);
    }

    /** The values of the current list's features in its order, null where missing. */
    public static FeatureValues ofCurrentList(Double[] values) {
        double[] unboxed = new double[values.length];
        BitSet missing = new BitSet(values.length);
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                missing.set(i);
            } else {
                unboxed[i] = values[i];
            }
        }
        return new FeatureValues(unboxed, missing);
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

    /** Whether the list's {@code i}th feature is missing. */
    public boolean missingAt(int i) {
        return missing.get(i);
    }

    /** The value of the list's {@code i}th feature unboxed; only meaningful when it is not {@link #missingAt}. */
    public double valueAt(int i) {
        return values[i];
    }

    /**
     * The feature's value as a model's row takes it: NaN when missing, not in the list, NaN or infinite, else the value
     * itself. What {@code get} gives, unboxed and without a box: the scorer reads every feature of a run this way, and
     * boxing them cost it 1.8 KB a run (JMH, issue #27).
     */
    public double finiteOrNaN(String name) {
        Integer place = PLACES.get(name);
        if (place == null || missing.get(place)) {
            return Double.NaN;
        }
        double value = values[place];
        return Double.isFinite(value) ? value : Double.NaN;
    }

    private Double boxedAt(int i) {
        return missing.get(i) ? null : values[i];
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
        return place == null ? null : boxedAt(place);
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super Double> action) {
        for (int i = 0; i < values.length; i++) {
            action.accept(NAMES.get(i), boxedAt(i));
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
                        return new SimpleImmutableEntry<>(NAMES.get(i), boxedAt(i));
                    }
                };
            }
        };
    }

    @Override
    public boolean equals(Object o) {
        if (o instanceof FeatureValues other) {
            // as Double.equals compares, which is what a map's equals uses: by bits, NaN equal to NaN, 0.0 not -0.0
            if (!missing.equals(other.missing)) {
                return false;
            }
            for (int i = 0; i < values.length; i++) {
                if (!missing.get(i) && Double.doubleToLongBits(values[i]) != Double.doubleToLongBits(other.values[i])) {
                    return false;
                }
            }
            return true;
        }
        return super.equals(o);
    }

    @Override
    public int hashCode() {
        // a map's: the sum of its entries', each the name's hash xor the value's (0 when missing), without boxing
        int hash = 0;
        for (int i = 0; i < values.length; i++) {
            hash += NAMES.get(i).hashCode() ^ (missing.get(i) ? 0 : Double.hashCode(values[i]));
        }
        return hash;
    }

    /**
     * The object Jackson writes for any map of these entries (a name and a number or null each, in list order), without
     * the entry and the box per feature that writing it as a map makes: writing a run's features as JSON (the
     * features.v1 documents) allocated 1.7 KB more for those than for a {@code LinkedHashMap}'s (measured).
     */
    static final class AsJsonObject extends StdSerializer<FeatureValues> {
        private static final long serialVersionUID = 1L;

        AsJsonObject() {
            super(FeatureValues.class);
        }

        @Override
        public void serialize(FeatureValues features, JsonGenerator gen, SerializerProvider provider)
                throws IOException {
            gen.writeStartObject(features);
            for (int i = 0; i < features.values.length; i++) {
                gen.writeFieldName(NAMES.get(i));
                if (features.missing.get(i)) {
                    gen.writeNull();
                } else {
                    gen.writeNumber(features.values[i]);
                }
            }
            gen.writeEndObject();
        }

        @Override
        public boolean isEmpty(SerializerProvider provider, FeatureValues features) {
            return features.isEmpty();
        }
    }
}
