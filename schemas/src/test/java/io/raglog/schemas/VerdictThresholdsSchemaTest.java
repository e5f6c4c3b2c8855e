package io.raglog.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import java.io.InputStream;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A v4 verdict says which thresholds decided it; a v3 verdict still reads, without them. */
class VerdictThresholdsSchemaTest {

    private static JsonSchema v4() throws Exception {
        try (InputStream in = VerdictThresholdsSchemaTest.class.getResourceAsStream("/schemas/verdict.v4.json")) {
            assertThat(in).as("verdict.v4.json on the classpath").isNotNull();
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Json.MAPPER.readTree(in));
        }
    }

    private static Verdict v4(ThresholdsUsed thresholds) {
        Verdict v3 = VerdictSchemaTest.reassignedRun();
        return new Verdict(Verdict.SCHEMA_V4, v3.runId(), v3.pipeline(), v3.question(), v3.answer(), v3.stages(),
                v3.flaggedStages(), v3.reassigned(), v3.knowledgeGap(), v3.llm(), v3.modelBundle(), v3.scoredAt(),
                v3.trace(), thresholds);
    }

    @Test
    void aVerdictDecidedByAnOverrideNamesItAndKeepsTheBundlesThresholdsItReplaced() throws Exception {
        Verdict verdict = v4(ThresholdsUsed.override(ThresholdsSchemaTest.retrieveAndGenerate(),
                Map.of(Stage.RETRIEVE, 0.55)));
        JsonNode encoded = Json.MAPPER.valueToTree(verdict);
        assertThat(v4().validate(encoded)).isEmpty();
        assertThat(encoded.get("thresholds").get("version").asText()).isEqualTo("docs-qa/v3");
        assertThat(encoded.get("thresholds").get("source").asText()).isEqualTo("reviews");
        assertThat(encoded.get("thresholds").get("replaced").get("retrieve").asDouble()).isEqualTo(0.55);
        assertThat(Json.read(Json.write(verdict), Verdict.class)).isEqualTo(verdict);
    }

    @Test
    void aVerdictDecidedByTheBundleNamesTheBundle() throws Exception {
        Verdict verdict = v4(ThresholdsUsed.bundle("raglog-default-7"));
        JsonNode encoded = Json.MAPPER.valueToTree(verdict);
        assertThat(v4().validate(encoded)).isEmpty();
        assertThat(encoded.get("thresholds").toString())
                .isEqualTo("{\"version\":\"raglog-default-7\",\"source\":\"bundle\",\"replaced\":{}}");
    }

    @Test
    void aV4VerdictMustSayWhichThresholdsDecidedIt() throws Exception {
        ObjectNode withoutThresholds = Json.MAPPER.valueToTree(v4(ThresholdsUsed.bundle("b")));
        withoutThresholds.remove("thresholds");
        assertThat(v4().validate(withoutThresholds)).isNotEmpty();
    }

    @Test
    void aV3VerdictIsStillReadWithoutThresholds() {
        Verdict v3 = VerdictSchemaTest.reassignedRun();
        String line = Json.write(v3);
        assertThat(line).doesNotContain("\"thresholds\"");
        Verdict read = Json.read(line, Verdict.class);
        assertThat(read.thresholds()).isNull();
        assertThat(read).isEqualTo(v3);
    }
}
