package io.raglog.flink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.smile.SmileGenerator;
import com.fasterxml.jackson.dataformat.smile.databind.SmileMapper;
import io.raglog.checks.FeatureList;
import io.raglog.checks.FeatureValues;
import io.raglog.checks.FeatureVector;
import io.raglog.checks.RunBuilder;
import io.raglog.schemas.Json;
import io.raglog.schemas.RunFeatures;
import io.raglog.score.ScoringInput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

class PackedFeaturesTest {

    private final JacksonSerializer<RunFeatures> serializer = new JacksonSerializer<>(RunFeatures.class);

    /** Values of every kind a feature can hold: counts, shares, negatives, -0.0, the extremes; a third missing. */
    private static Map<String, Double> currentList() {
        double[] kinds = {0.0, -0.0, 1.0, 3.0, 0.1, 1.0 / 3, -0.4375, 99.99, Double.MIN_VALUE, Double.MAX_VALUE,
                1e-300, 12345678.9};
        Map<String, Double> map = new LinkedHashMap<>();
        List<String> names = FeatureList.names();
        for (int i = 0; i < names.size(); i++) {
            map.put(names.get(i), i % 3 == 2 ? null : kinds[i % kinds.length]);
        }
        return map;
    }

    private static RunFeatures run(Map<String, Double> features) {
        return new RunFeatures(RunFeatures.SCHEMA_V1, "run-1", "pipeline-a", "What was the 2023 cash?",
                FeatureList.VERSION, features, null, null, List.of());
    }

    private static FeatureValues packed(Map<String, Double> features) {
        FeatureVector vector = new FeatureVector();
        features.forEach(vector::put);
        return (FeatureValues) vector.asMap();
    }

    private byte[] write(RunFeatures features) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        serializer.serialize(features, out);
        return out.getCopyOfBuffer();
    }

    private RunFeatures read(byte[] written) throws IOException {
        return serializer.deserialize(new DataInputDeserializer(written));
    }

    private static void assertSameBits(Map<String, Double> back, Map<String, Double> expected) {
        assertThat(back.keySet()).containsExactlyElementsOf(expected.keySet());
        expected.forEach((name, value) -> {
            Double read = back.get(name);
            if (value == null) {
                assertThat(read).as(name).isNull();
            } else {
                assertThat(Double.doubleToRawLongBits(read)).as(name)
                        .isEqualTo(Double.doubleToRawLongBits(value));
            }
        });
    }

    private static int occurrences(byte[] haystack, String text) {
        return JacksonSerializerTest.occurrences(haystack, text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void shouldWriteTheCurrentListsFeaturesWithoutTheirNamesAndReadTheSameNumbers() throws Exception {
        Map<String, Double> expected = currentList();
        for (Map<String, Double> features : List.of(packed(expected), expected)) {
            byte[] written = write(run(features));
            for (String name : FeatureList.names()) {
                assertThat(occurrences(written, name)).as(name).isZero();
            }
            RunFeatures back = read(written);
            assertThat(back.features()).isInstanceOf(FeatureValues.class).isEqualTo(expected);
            assertThat(back.features().hashCode()).isEqualTo(expected.hashCode());
            assertSameBits(back.features(), expected);
            assertThat(back).isEqualTo(run(expected));
            // the contract's JSON, as the topics and files get it, is the same as the map's
            assertThat(Json.write(back)).isEqualTo(Json.write(run(expected)));
        }
    }

    @Test
    void shouldCarryNaNAndInfinitiesAsTheyAre() throws Exception {
        Map<String, Double> expected = currentList();
        List<String> names = FeatureList.names();
        expected.put(names.get(0), Double.NaN);
        expected.put(names.get(1), Double.longBitsToDouble(0x7ff8000000000123L)); // a NaN with a payload
        expected.put(names.get(2), Double.POSITIVE_INFINITY);
        expected.put(names.get(3), Double.NEGATIVE_INFINITY);
        RunFeatures back = read(write(run(expected)));
        assertThat(back.features()).isInstanceOf(FeatureValues.class);
        assertSameBits(back.features(), expected);
    }

    @Test
    void shouldWriteFeaturesOffTheCurrentListAsTheMapTheyAre() throws Exception {
        Map<String, Double> subset = new LinkedHashMap<>();
        subset.put(FeatureList.EMBED_TRUNCATED, 1.0);
        subset.put(FeatureList.REWRITE_LOST_DATES, null);
        subset.put("some.other_list_feature", 0.5);
        Map<String, Double> reordered = new LinkedHashMap<>();
        List<String> names = new java.util.ArrayList<>(FeatureList.names());
        java.util.Collections.reverse(names);
        names.forEach(name -> reordered.put(name, currentList().get(name)));
        for (Map<String, Double> features : List.of(subset, reordered, Map.<String, Double>of())) {
            byte[] written = write(run(features));
            // as the serializer's mapper without the packing: binary raw, which its Smile header says, and
            // instants as nanoseconds
            assertThat(written).isEqualTo(JacksonSerializerTest.framed(Json.configure(SmileMapper.builder()
                    .disable(SmileGenerator.Feature.ENCODE_BINARY_AS_7BIT)
                    .disable(SmileGenerator.Feature.CHECK_SHARED_NAMES)
                    .addMixIn(java.time.Instant.class, NanoInstants.InstantMixIn.class))
                    .writeValueAsBytes(run(features))));
            RunFeatures back = read(written);
            assertThat(back.features()).isInstanceOf(LinkedHashMap.class).isEqualTo(features);
            assertThat(back.features().keySet()).containsExactlyElementsOf(features.keySet());
        }
        assertThat(read(write(run(null))).features()).isNull();
    }

    @Test
    void shouldReadFeaturesWrittenAsAMapBeforeTheyWerePacked() throws Exception {
        Map<String, Double> expected = currentList();
        byte[] before = JacksonSerializerTest.framed(Json.configure(SmileMapper.builder()).writeValueAsBytes(run(expected)));
        RunFeatures back = read(before);
        assertThat(back.features()).isEqualTo(expected);
        assertSameBits(back.features(), expected);
        assertThat(Json.write(back)).isEqualTo(Json.write(run(expected)));
    }

    @Test
    void shouldRefuseValuesPackedForAnotherListOrCount() throws Exception {
        ObjectNode document = Json.MAPPER.valueToTree(run(Map.of()));
        ArrayNode other = document.putArray("features").add("raglog.checks/v0");
        FeatureList.names().forEach(name -> other.add(1.0));
        assertThatThrownBy(() -> read(JacksonSerializerTest.framed(Json.configure(SmileMapper.builder()).writeValueAsBytes(document))))
                .isInstanceOf(IOException.class).hasMessageContaining("raglog.checks/v0");
        ArrayNode tooMany = document.putArray("features").add(FeatureList.VERSION);
        FeatureList.names().forEach(name -> tooMany.add(1.0));
        tooMany.add(2.0);
        assertThatThrownBy(() -> read(JacksonSerializerTest.framed(Json.configure(SmileMapper.builder()).writeValueAsBytes(document))))
                .isInstanceOf(IOException.class).hasMessageContaining("more features");
        ArrayNode tooFew = document.putArray("features").add(FeatureList.VERSION).add(1.0);
        assertThatThrownBy(() -> read(JacksonSerializerTest.framed(Json.configure(SmileMapper.builder()).writeValueAsBytes(document))))
                .isInstanceOf(IOException.class);
    }

    @Test
    void shouldHandAScoringInputOverWithTheSameFeatures() throws Exception {
        Map<String, Double> expected = currentList();
        ScoringInput input = ScoringInput.of(RunBuilder.healthy().build(), run(packed(expected)));
        JacksonSerializer<ScoringInput> inputs = new JacksonSerializer<>(ScoringInput.class);
        DataOutputSerializer out = new DataOutputSerializer(256);
        inputs.serialize(input, out);
        ScoringInput back = inputs.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
        assertThat(back).isEqualTo(input);
        assertSameBits(back.features().features(), expected);
    }
}
