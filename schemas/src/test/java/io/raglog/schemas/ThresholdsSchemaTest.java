package io.raglog.schemas;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import java.io.InputStream;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A pipeline's threshold overrides: the record, its schema file, and what neither lets through. */
class ThresholdsSchemaTest {

    private static JsonSchema schema() throws Exception {
        try (InputStream in = ThresholdsSchemaTest.class.getResourceAsStream("/schemas/thresholds.v1.json")) {
            assertThat(in).as("thresholds.v1.json on the classpath").isNotNull();
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Json.MAPPER.readTree(in));
        }
    }

    static PipelineThresholds retrieveAndGenerate() {
        return PipelineThresholds.of("docs-qa", 3, "raglog-default-7", Map.of(Stage.GENERATE, 0.41, Stage.RETRIEVE, 0.62),
                new PipelineThresholds.Basis(200, 0.05, PipelineThresholds.SOURCE_REVIEWS),
                Instant.parse("2026-12-02T07:00:00Z"));
    }

    @Test
    void encodedOverrideValidatesAgainstItsSchemaAndReadsBack() throws Exception {
        PipelineThresholds override = retrieveAndGenerate();
        JsonNode encoded = Json.MAPPER.valueToTree(override);
        assertThat(schema().validate(encoded)).isEmpty();
        assertThat(encoded.get("model_bundle").asText()).isEqualTo("raglog-default-7");
        assertThat(encoded.get("basis").get("reviewed_runs").asInt()).isEqualTo(200);
        assertThat(Json.write(override)).contains("\"thresholds\":{\"retrieve\":0.62,\"generate\":0.41}");
        assertThat(Json.read(Json.write(override), PipelineThresholds.class)).isEqualTo(override);
        assertThat(override.byStage()).containsExactly(Map.entry(Stage.RETRIEVE, 0.62), Map.entry(Stage.GENERATE, 0.41));
        assertThat(override.label()).isEqualTo("docs-qa/v3");
    }

    @Test
    void schemaRefusesAnUnknownStageAThresholdAboveOneAndAVersionZero() throws Exception {
        ObjectNode unknownStage = Json.MAPPER.valueToTree(retrieveAndGenerate());
        ((ObjectNode) unknownStage.get("thresholds")).put("answer", 0.5);
        assertThat(schema().validate(unknownStage)).isNotEmpty();
        ObjectNode aboveOne = Json.MAPPER.valueToTree(retrieveAndGenerate());
        ((ObjectNode) aboveOne.get("thresholds")).put("embed", 1.5);
        assertThat(schema().validate(aboveOne)).isNotEmpty();
        ObjectNode versionZero = Json.MAPPER.valueToTree(retrieveAndGenerate());
        versionZero.put("version", 0);
        assertThat(schema().validate(versionZero)).isNotEmpty();
    }

    @Test
    void theRecordRefusesWhatTheSchemaRefuses() {
        String line = Json.write(retrieveAndGenerate());
        assertThatThrownBy(() -> Json.read(line.replace("\"retrieve\"", "\"answer\""), PipelineThresholds.class))
                .hasMessageContaining("no stage 'answer'");
        assertThatThrownBy(() -> Json.read(line.replace("0.62", "1.62"), PipelineThresholds.class))
                .hasMessageContaining("thresholds.retrieve must be in [0, 1]");
        assertThatThrownBy(() -> Json.read(line.replace("\"version\":3", "\"version\":0"), PipelineThresholds.class))
                .hasMessageContaining("version must be 1 or more");
        assertThatThrownBy(() -> Json.read(line.replace("raglog.thresholds/v1", "raglog.thresholds/v9"),
                PipelineThresholds.class)).hasMessageContaining("schema must be raglog.thresholds/v1");
    }
}
