package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.dataformat.smile.databind.SmileMapper;
import io.raglog.schemas.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FeatureValuesTest {

    /** Every other feature set, the rest missing, as a run's features often are. */
    private static Map<String, Double> asLinkedHashMap() {
        Map<String, Double> map = new LinkedHashMap<>();
        List<String> names = FeatureList.names();
        for (int i = 0; i < names.size(); i++) {
            map.put(names.get(i), i % 2 == 0 ? i * 0.25 - 3 : null);
        }
        return map;
    }

    private static FeatureValues asFeatureValues() {
        FeatureVector vector = new FeatureVector();
        asLinkedHashMap().forEach(vector::put);
        return (FeatureValues) vector.asMap();
    }

    @Test
    void shouldReadAsTheLinkedHashMapOfTheSameEntries() {
        Map<String, Double> expected = asLinkedHashMap();
        FeatureValues values = asFeatureValues();

        assertThat(values).isEqualTo(expected);
        assertThat(expected).isEqualTo(values);
        assertThat(values.hashCode()).isEqualTo(expected.hashCode());
        assertThat(values.toString()).isEqualTo(expected.toString());
        assertThat(values.size()).isEqualTo(expected.size());
        assertThat(new ArrayList<>(values.keySet())).isEqualTo(new ArrayList<>(expected.keySet()));
        assertThat(new ArrayList<>(values.values())).isEqualTo(new ArrayList<>(expected.values()));
        assertThat(new ArrayList<>(values.entrySet())).isEqualTo(new ArrayList<>(expected.entrySet()));
        List<String> visited = new ArrayList<>();
        values.forEach((name, value) -> {
            visited.add(name);
            assertThat(value).isEqualTo(expected.get(name));
        });
        assertThat(visited).isEqualTo(FeatureList.names());
        for (String name : FeatureList.names()) {
            assertThat(values.get(name)).isEqualTo(expected.get(name));
            assertThat(values.containsKey(name)).as("a missing feature is still a key").isTrue();
        }
        assertThat(values.get("not.a.feature")).isNull();
        assertThat(values.get(null)).isNull();
        assertThat(values.containsKey("not.a.feature")).isFalse();
    }

    @Test
    void shouldDifferFromAMapWithAnotherValueOrAnotherKey() {
        FeatureValues values = asFeatureValues();
        Map<String, Double> changed = asLinkedHashMap();
        changed.put(FeatureList.names().get(1), 1.0); // a missing one set
        assertThat(values).isNotEqualTo(changed);
        assertThat(changed).isNotEqualTo(values);
        Map<String, Double> fewer = asLinkedHashMap();
        fewer.remove(FeatureList.names().get(1));
        assertThat(values).isNotEqualTo(fewer);
        assertThat(values).isEqualTo(asFeatureValues()).isNotSameAs(asFeatureValues());
    }

    @Test
    void shouldCompareValuesAsAMapOfDoublesDoes() throws Exception {
        List<String> names = FeatureList.names();
        double[] odd = {Double.NaN, Double.longBitsToDouble(0x7ff8000000000123L), -0.0, 0.0,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        Map<String, Double> expected = new LinkedHashMap<>();
        double[] values = new double[names.size()];
        java.util.BitSet missing = new java.util.BitSet();
        for (int i = 0; i < names.size(); i++) {
            boolean isMissing = i >= odd.length && i % 2 == 1;
            values[i] = i < odd.length ? odd[i] : i;
            expected.put(names.get(i), isMissing ? null : values[i]);
            missing.set(i, isMissing);
        }
        FeatureValues read = FeatureValues.ofCurrentList(values, missing);
        assertThat(read).isEqualTo(expected);
        assertThat(expected).isEqualTo(read);
        assertThat(read.hashCode()).isEqualTo(expected.hashCode());
        assertThat(Double.doubleToRawLongBits(read.get(names.get(1)))).isEqualTo(0x7ff8000000000123L);
        assertThat(Double.doubleToRawLongBits(read.get(names.get(2)))).isEqualTo(Double.doubleToRawLongBits(-0.0));

        // the JSON of the features.v1 documents: what any map of these entries writes
        assertThat(Json.write(read)).isEqualTo(Json.write(expected));
        assertThat(Json.write(Map.of("features", read))).isEqualTo(Json.write(Map.of("features", expected)));
        SmileMapper smile = Json.configure(SmileMapper.builder());
        assertThat(smile.writeValueAsBytes(read)).isEqualTo(smile.writeValueAsBytes(expected));

        double[] zero = values.clone();
        zero[2] = 0.0; // -0.0 and 0.0 are different Doubles
        FeatureValues other = FeatureValues.ofCurrentList(zero, (java.util.BitSet) missing.clone());
        assertThat(other).isNotEqualTo(read);
        assertThat(read).isNotEqualTo(other);
        double[] stale = values.clone();
        stale[odd.length + 1] = 42; // what a missing place holds is not a value
        assertThat(FeatureValues.ofCurrentList(stale, (java.util.BitSet) missing.clone())).isEqualTo(read)
                .hasSameHashCodeAs(read);
    }

    @Test
    void shouldNotBeChanged() {
        FeatureValues values = asFeatureValues();
        String name = FeatureList.names().get(0);
        assertThatThrownBy(() -> values.put(name, 1.0)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> values.remove(name)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(values::clear).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> values.entrySet().iterator().remove())
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void shouldKnowAMapThatFollowsTheCurrentList() {
        assertThat(FeatureValues.followsCurrentList(asFeatureValues())).isTrue();
        assertThat(FeatureValues.followsCurrentList(asLinkedHashMap())).isTrue();
        Map<String, Double> reordered = new LinkedHashMap<>();
        List<String> names = new ArrayList<>(FeatureList.names());
        java.util.Collections.reverse(names);
        names.forEach(n -> reordered.put(n, 1.0));
        assertThat(FeatureValues.followsCurrentList(reordered)).isFalse();
        assertThat(FeatureValues.followsCurrentList(Map.of(FeatureList.names().get(0), 1.0))).isFalse();
        assertThatThrownBy(() -> FeatureValues.ofCurrentList(new Double[1]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(FeatureList.VERSION);
    }
}
