package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.schemas.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The known features read, compare and write as the {@code LinkedHashMap} of them they replace. */
class KnownFeaturesTest {

    @Test
    void shouldReadCompareAndWriteAsTheLinkedHashMapOfTheKnownValues() {
        List<String> names = FeatureList.names();
        Random random = new Random(3);
        for (int round = 0; round < 300; round++) {
            FeatureVector vector = new FeatureVector();
            for (int n = random.nextInt(names.size() + 1); n > 0; n--) {
                vector.put(names.get(random.nextInt(names.size())), value(random));
            }

            Map<String, Double> known = vector.known();
            Map<String, Double> reference = reference(vector);

            assertThat(known).isEqualTo(reference);
            assertThat(reference).isEqualTo(known);
            assertThat(known.hashCode()).isEqualTo(reference.hashCode());
            assertThat(known.toString()).isEqualTo(reference.toString());
            assertThat(known.size()).isEqualTo(reference.size());
            assertThat(new ArrayList<>(known.keySet())).isEqualTo(new ArrayList<>(reference.keySet()));
            assertThat(new ArrayList<>(known.values())).isEqualTo(new ArrayList<>(reference.values()));
            List<String> visited = new ArrayList<>();
            known.forEach((name, value) -> {
                visited.add(name);
                assertThat(value).isEqualTo(reference.get(name));
            });
            assertThat(visited).isEqualTo(new ArrayList<>(reference.keySet()));
            for (String name : names) {
                assertThat(known.get(name)).isEqualTo(reference.get(name));
                assertThat(known.containsKey(name)).isEqualTo(reference.containsKey(name));
            }
            assertThat(known.get("no.such_feature")).isNull();
            assertThat(known.get(null)).isNull();
            assertThat(Json.writeBytes(known)).isEqualTo(Json.writeBytes(reference));
            assertThat(Json.writeBytes(new CheckedRun(null, known, List.of())))
                    .isEqualTo(Json.writeBytes(new CheckedRun(null, reference, List.of())));
            assertThat(FeatureVector.of(known).asMap()).isEqualTo(FeatureVector.of(reference).asMap());
        }
    }

    @Test
    void shouldNotChangeWithTheVectorNorBeChanged() {
        String name = FeatureList.names().get(0);
        FeatureVector vector = new FeatureVector().put(name, 1.0);
        Map<String, Double> known = vector.known();
        vector.put(name, 2.0);

        assertThat(known).containsExactly(Map.entry(name, 1.0));
        assertThatThrownBy(() -> known.put(name, 3.0)).isInstanceOf(UnsupportedOperationException.class);
    }

    /** The former {@code known()}, kept here as the reference. */
    private static Map<String, Double> reference(FeatureVector vector) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String name : FeatureList.names()) {
            if (vector.get(name) != null) {
                out.put(name, vector.get(name));
            }
        }
        return out;
    }

    /** Mostly ordinary numbers, and the values a vector turns into missing or keeps as they are. */
    private static Double value(Random random) {
        return switch (random.nextInt(8)) {
            case 0 -> null;
            case 1 -> Double.NaN;
            case 2 -> -0.0;
            case 3 -> Double.MAX_VALUE;
            default -> random.nextGaussian() * 1e3;
        };
    }
}
