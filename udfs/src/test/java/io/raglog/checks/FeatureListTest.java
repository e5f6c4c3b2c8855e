package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.schemas.Stage;
import org.junit.jupiter.api.Test;

class FeatureListTest {

    @Test
    void shouldNameEachFeatureAfterTheStageItDescribes() {
        for (FeatureList.Feature f : FeatureList.all()) {
            assertThat(f.name()).startsWith(f.stage().id() + ".");
            assertThat(f.description()).isNotBlank();
        }
        for (Stage stage : Stage.values()) {
            assertThat(FeatureList.forStage(stage)).as(stage.id()).isNotEmpty();
        }
    }

    @Test
    void shouldStartEveryVectorWithAllFeaturesMissingAndRefuseUnknownNames() {
        FeatureVector v = new FeatureVector();
        assertThat(v.asMap().keySet()).containsExactlyElementsOf(FeatureList.names());
        assertThat(v.asMap().values()).containsOnlyNulls();
        assertThatThrownBy(() -> v.put("rewrite.lost_nmaes", 1.0)).hasMessageContaining("rewrite.lost_nmaes");
        assertThat(v.put(FeatureList.RERANK_SIM_CORRELATION, Double.NaN).get(FeatureList.RERANK_SIM_CORRELATION))
                .as("NaN is missing, not a number").isNull();
    }
}
