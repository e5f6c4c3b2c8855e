package io.raglog.flink;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import io.raglog.checks.FeatureList;
import io.raglog.checks.FeatureValues;
import java.io.IOException;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's features between raglog's tasks as the feature list's version and the values in its order, rather than
 * 85 names and values. Writing each name and reading it back into a {@code LinkedHashMap} of its own was most of what
 * handing a run's scoring input from the checks' task to the scoring task cost (issue #27): 3.2 of its 4.6 KB, 6.2 of
 * the 9.2 KB writing it allocated and 7.3 of the 13.9 KB reading it did. Read here, the features are a
 * {@link FeatureValues}, which shares the names; the hand-over went from 24.0 to 11.3 KB allocated and from 67 to
 * 125 thousand a second ({@code HandOverBenchmarks.handOverScoringInput}). Features that do not follow the current
 * list exactly (another list's, or a map put together by hand) are written and read as the map they are, and so is
 * everything written before. Only {@link JacksonSerializer}'s own form does this: the topics' and files' features.v1
 * documents are plain JSON, with every name.
 *
 * <p>The packed form is {@code [version, value or null, ...]}: each value a Smile double, its bits as they are (NaN and
 * infinities included), so the scorer reads the same numbers. A version this release does not know, or a count of
 * values not its list's, fails the read rather than giving values to the wrong names.
 */
final class PackedFeatures {

    private PackedFeatures() {}

    /** What {@code RunFeatures.features} is written and read with in {@link JacksonSerializer}'s mapper. */
    abstract static class RunFeaturesMixIn {
        @JsonSerialize(using = Writer.class)
        @JsonDeserialize(using = Reader.class)
        abstract Map<String, Double> features();
    }

    static final class Writer extends StdSerializer<Map<String, Double>> {
        private static final long serialVersionUID = 1L;

        @SuppressWarnings("unchecked")
        Writer() {
            super((Class<Map<String, Double>>) (Class<?>) Map.class);
        }

        @Override
        public void serialize(Map<String, Double> features, JsonGenerator gen, SerializerProvider provider)
                throws IOException {
            if (!FeatureValues.followsCurrentList(features)) {
                provider.defaultSerializeValue(features, gen); // as before: a name and a value each
                return;
            }
            gen.writeStartArray();
            gen.writeString(FeatureList.VERSION);
            if (features instanceof FeatureValues values) {
                for (int i = 0; i < values.size(); i++) {
                    if (values.missingAt(i)) {
                        gen.writeNull();
                    } else {
                        gen.writeNumber(values.valueAt(i));
                    }
                }
            } else {
                for (Double value : features.values()) {
                    write(value, gen);
                }
            }
            gen.writeEndArray();
        }

        private static void write(Double value, JsonGenerator gen) throws IOException {
            if (value == null) {
                gen.writeNull();
            } else {
                gen.writeNumber(value.doubleValue());
            }
        }
    }

    static final class Reader extends StdDeserializer<Map<String, Double>> {
        private static final long serialVersionUID = 1L;

        Reader() {
            super(Map.class);
        }

        @Override
        public Map<String, Double> deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (!p.isExpectedStartArrayToken()) {
                return ctxt.readValue(p, mapType(ctxt)); // a map, as written before or off the current list
            }
            String version = p.nextTextValue();
            if (!FeatureList.VERSION.equals(version)) {
                return ctxt.reportInputMismatch(this, "features packed for feature list %s, but this release has %s",
                        version, FeatureList.VERSION);
            }
            List<String> names = FeatureValues.names();
            double[] values = new double[names.size()];
            BitSet missing = new BitSet(values.length);
            for (int i = 0; i < values.length; i++) {
                JsonToken token = p.nextToken();
                if (token == JsonToken.VALUE_NULL) {
                    missing.set(i);
                    continue;
                }
                if (token != JsonToken.VALUE_NUMBER_FLOAT && token != JsonToken.VALUE_NUMBER_INT) {
                    return ctxt.reportInputMismatch(this, "feature %s packed as %s, not a number or null",
                            names.get(i), token);
                }
                values[i] = p.getDoubleValue();
            }
            if (p.nextToken() != JsonToken.END_ARRAY) {
                return ctxt.reportInputMismatch(this, "more features packed than the %d of list %s", values.length,
                        version);
            }
            return FeatureValues.ofCurrentList(values, missing);
        }

        @Override
        public Map<String, Double> getNullValue(DeserializationContext ctxt) {
            return null;
        }

        private static JavaType mapType(DeserializationContext ctxt) {
            return ctxt.getTypeFactory().constructMapType(LinkedHashMap.class, String.class, Double.class);
        }
    }
}
