package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class FeatureVectorTest {

    @Test
    void shouldKeepTheListsOrderWhateverOrderTheValuesCameIn() {
        List<String> names = FeatureList.names();
        FeatureVector v = new FeatureVector();
        v.put(names.get(5), 2.0).put(names.get(1), true).put(names.get(3), Double.NaN).put(names.get(7), 1.5)
                .put(names.get(7), (Double) null).put(names.get(0), 0.25);
        assertThat(new ArrayList<>(v.known().keySet())).containsExactly(names.get(0), names.get(1), names.get(5));
        assertThat(v.known()).containsEntry(names.get(1), 1.0).containsEntry(names.get(5), 2.0);
        Map<String, Double> all = v.asMap();
        assertThat(new ArrayList<>(all.keySet())).isEqualTo(names);
        assertThat(all.get(names.get(3))).isNull();
        assertThat(v.get(names.get(0))).isEqualTo(0.25);
        assertThat(FeatureVector.of(v.known()).asMap()).isEqualTo(all);
    }

    @Test
    void shouldRefuseANameNotInTheList() {
        assertThatThrownBy(() -> new FeatureVector().put("no.such_feature", 1.0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no.such_feature");
        assertThatThrownBy(() -> new FeatureVector().get("no.such_feature"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
