package io.raglog.checks;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import java.io.IOException;
import java.io.Serializable;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * The features of a run already known, by name in the list's order ({@link FeatureVector#known}): it reads as the
 * {@code LinkedHashMap} it replaces did (order, {@code get}, {@code equals} and {@code hashCode} with any map of the
 * same entries, JSON) and cannot be changed. It is the vector's values by place, copied, the missing ones null: the
 * map's entries and table were 3.6 KB of what the checks task allocated a run (JFR of ./raglog bench --own-cpu-only).
 */
@JsonSerialize(using = KnownFeatures.AsJsonObject.class)
final class KnownFeatures extends AbstractMap<String, Double> implements Serializable {

    private static final long serialVersionUID = 1L;

    private final List<String> names;
    private final Map<String, Integer> places;
    /** Each feature's value by its place in the list, null where not known; the map's own. */
    private final Double[] values;
    private final int size;

    /** @param values by place in {@code names}, null where not known: the map's own now */
    KnownFeatures(List<String> names, Map<String, Integer> places, Double[] values) {
        this.names = names;
        this.places = places;
        this.values = values;
        int known = 0;
        for (Double value : values) {
            if (value != null) {
                known++;
            }
        }
        this.size = known;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean containsKey(Object name) {
        return get(name) != null;
    }

    @Override
    public Double get(Object name) {
        Integer place = name == null ? null : places.get(name);
        return place == null ? null : values[place];
    }

    @Override
    public void forEach(BiConsumer<? super String, ? super Double> action) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] != null) {
                action.accept(names.get(i), values[i]);
            }
        }
    }

    @Override
    public Set<Entry<String, Double>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return size;
            }

            @Override
            public Iterator<Entry<String, Double>> iterator() {
                return new Iterator<>() {
                    private int next = nextKnown(0);

                    @Override
                    public boolean hasNext() {
                        return next < values.length;
                    }

                    @Override
                    public Entry<String, Double> next() {
                        if (next >= values.length) {
                            throw new NoSuchElementException();
                        }
                        int i = next;
                        next = nextKnown(i + 1);
                        return new SimpleImmutableEntry<>(names.get(i), values[i]);
                    }
                };
            }
        };
    }

    /** The first place from {@code from} on with a known value, or the list's size. */
    private int nextKnown(int from) {
        int i = from;
        while (i < values.length && values[i] == null) {
            i++;
        }
        return i;
    }

    /**
     * The object Jackson writes for the {@code LinkedHashMap} of the same entries (a name and a number each, in list
     * order), without an entry per feature: the run crosses to the LLM checks' task as JSON.
     */
    static final class AsJsonObject extends StdSerializer<KnownFeatures> {
        private static final long serialVersionUID = 1L;

        AsJsonObject() {
            super(KnownFeatures.class);
        }

        @Override
        public void serialize(KnownFeatures features, JsonGenerator gen, SerializerProvider provider)
                throws IOException {
            gen.writeStartObject(features);
            for (int i = 0; i < features.values.length; i++) {
                if (features.values[i] != null) {
                    gen.writeFieldName(features.names.get(i));
                    gen.writeNumber(features.values[i].doubleValue());
                }
            }
            gen.writeEndObject();
        }

        @Override
        public boolean isEmpty(SerializerProvider provider, KnownFeatures features) {
            return features.isEmpty();
        }
    }
}
