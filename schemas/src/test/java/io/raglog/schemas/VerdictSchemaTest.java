package io.raglog.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What the scoring step writes must validate against {@code verdict.v1.json}, absent stages and all. */
class VerdictSchemaTest {

    private static JsonSchema schema() throws Exception {
        try (InputStream in = VerdictSchemaTest.class.getResourceAsStream("/schemas/verdict.v1.json")) {
            assertThat(in).as("verdict.v1.json on the classpath").isNotNull();
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Json.MAPPER.readTree(in));
        }
    }

    private static Set<ValidationMessage> validate(Object record) throws Exception {
        return schema().validate(Json.MAPPER.valueToTree(record));
    }

    private static StageVerdict sound(double p) {
        return new StageVerdict(true, p, 0.5, false, List.of(), null,
                new StageVerdict.ModelProbabilities(p, p, p));
    }

    /** A reassigned run: retrieval scored above its threshold but was cleared, the reranker was flagged. */
    static Verdict reassignedRun() {
        StageVerdict retrieve = new StageVerdict(true, 0.81, 0.55, false,
                List.of("retrieval found 'operating cash flow in 2023' (doc-7#2), the reranker dropped it"), null,
                new StageVerdict.ModelProbabilities(0.7, 0.9, 0.72));
        StageVerdict rerank = new StageVerdict(true, 0.34, 0.6, true,
                List.of("the passage holding 'operating cash flow in 2023' was dropped: the reranker kept 5 of 20"),
                "Raise the reranker's top-n above 5 so the passage holding the answer reaches the generator.",
                new StageVerdict.ModelProbabilities(0.3, 0.4, 0.2));
        return new Verdict(Verdict.SCHEMA_V1, "run-1", "support-bot", "What was the operating cash flow in 2023?",
                "I don't know.",
                new VerdictStages(StageVerdict.absent(), sound(0.02), retrieve, rerank, sound(0.1)),
                List.of(Stage.RERANK), true,
                new LlmUsage(5, 2400, 310, 0.0021, false, List.of(), "offline-judge/v1"),
                "raglog-default@3f2a9c0d1e4b", Instant.parse("2026-11-29T10:00:03Z"));
    }

    @Test
    void encodedVerdictValidatesAgainstItsSchema() throws Exception {
        assertThat(validate(reassignedRun())).isEmpty();
    }

    @Test
    void absentStagesAreWrittenWithNullProbabilityNotDropped() {
        JsonNode encoded = Json.MAPPER.valueToTree(reassignedRun());
        JsonNode rewrite = encoded.get("stages").get("rewrite");
        assertThat(rewrite.get("present").asBoolean()).isFalse();
        assertThat(rewrite.get("probability").isNull()).isTrue();
        assertThat(encoded.get("flagged_stages").toString()).isEqualTo("[\"rerank\"]");
        assertThat(Json.write(reassignedRun())).contains("\"repair_hint\"", "\"model_bundle\"", "\"scored_at\"",
                "\"gradient_boosted_trees\"", "\"reassigned\":true");
    }

    @Test
    void schemaRejectsAFlaggedStageWithoutEvidence() throws Exception {
        ObjectNode encoded = Json.MAPPER.valueToTree(reassignedRun());
        ((ObjectNode) encoded.get("stages").get("rerank")).putArray("evidence");
        assertThat(schema().validate(encoded)).isNotEmpty();
    }

    @Test
    void schemaRejectsAnAbsentStageThatIsFlagged() throws Exception {
        ObjectNode encoded = Json.MAPPER.valueToTree(reassignedRun());
        ((ObjectNode) encoded.get("stages").get("rewrite")).put("flagged", true);
        assertThat(schema().validate(encoded)).isNotEmpty();
    }

    @Test
    void schemaRejectsAProbabilityAboveOne() throws Exception {
        ObjectNode encoded = Json.MAPPER.valueToTree(reassignedRun());
        ((ObjectNode) encoded.get("stages").get("embed")).put("probability", 1.2);
        assertThat(schema().validate(encoded)).isNotEmpty();
    }

    @Test
    void verdictRoundTripsThroughJson() {
        Verdict verdict = reassignedRun();
        assertThat(Json.read(Json.write(verdict), Verdict.class)).isEqualTo(verdict);
        assertThat(verdict.flagged()).isTrue();
    }
}
