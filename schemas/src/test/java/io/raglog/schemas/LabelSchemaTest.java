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

/** The simulator's label lines: what the Label record encodes must validate against its schema (v3; v2 and v1 still read). */
class LabelSchemaTest {

    private static JsonSchema schema() throws Exception {
        return schema("label.v3.json");
    }

    private static JsonSchema schema(String file) throws Exception {
        try (InputStream in = LabelSchemaTest.class.getResourceAsStream("/schemas/" + file)) {
            assertThat(in).as(file + " on the classpath").isNotNull();
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Json.MAPPER.readTree(in));
        }
    }

    private static Set<ValidationMessage> validate(Object record) throws Exception {
        JsonNode encoded = Json.MAPPER.valueToTree(record);
        return schema().validate(encoded);
    }

    static Label injectedRetrievalFault() {
        String generatorEventId = "evt-9";
        return new Label(SchemaIds.LABEL_V3, RunIds.of("support-bot", null, generatorEventId), "support-bot",
                "tei-pinecone-anthropic", "q-17", "In what country is Normandy located?", null, generatorEventId,
                new LabelStages(null, 0, 1, null, 0), "retrieve", "retrieve.missing_evidence",
                Label.ORIGIN_INJECTED, "the store lost the evidence chunk Normans-0#0", false, true, "France",
                "I don't know.", List.of("Normans-0#0"), Instant.parse("2026-01-01T00:00:01.250Z"));
    }

    static Label soundRun() {
        return new Label(SchemaIds.LABEL_V3, RunIds.of("support-bot", "4bf92f3577b34da6a3ce929d0e0e4736", "evt-3"),
                "support-bot", "openai-qdrant-cohere", "q-2", "When were the Normans in Normandy?",
                "4bf92f3577b34da6a3ce929d0e0e4736", "evt-3", new LabelStages(0, 0, 0, 0, 0), null, null, null, null,
                true, true, "10th and 11th centuries", "In the 10th and 11th centuries.", List.of("Normans-0#0"),
                Instant.parse("2026-01-01T00:00:00Z"));
    }

    @Test
    void encodedLabelsValidateAgainstTheirSchema() throws Exception {
        assertThat(validate(injectedRetrievalFault())).isEmpty();
        assertThat(validate(soundRun())).isEmpty();
    }

    @Test
    void wireNamesAreTheOnesTheLabelFilesUse() {
        JsonNode encoded = Json.MAPPER.valueToTree(injectedRetrievalFault());
        assertThat(encoded.has("is_answerable")).isTrue();
        assertThat(encoded.has("answer_correct")).isTrue();
        assertThat(encoded.get("stages").get("rewrite").isNull()).isTrue();
        assertThat(encoded.get("stages").get("retrieve").asInt()).isEqualTo(1);
        assertThat(encoded.get("generator_event_id").asText()).isEqualTo("evt-9");
    }

    @Test
    void schemaRejectsAFaultTypeWithoutItsStage() throws Exception {
        ObjectNode encoded = Json.MAPPER.valueToTree(soundRun());
        encoded.put("fault_type", "missing evidence");
        assertThat(schema().validate(encoded)).isNotEmpty();
    }

    @Test
    void schemaRejectsAStageLabelOtherThanZeroOneOrNull() throws Exception {
        ObjectNode encoded = Json.MAPPER.valueToTree(soundRun());
        ((ObjectNode) encoded.get("stages")).put("embed", 2);
        assertThat(schema().validate(encoded))
                .extracting(ValidationMessage::getMessage)
                .anySatisfy(m -> assertThat(m).contains("embed"));
    }

    @Test
    void labelRoundTripsThroughJson() {
        Label label = injectedRetrievalFault();
        assertThat(Json.read(Json.write(label), Label.class)).isEqualTo(label);
        assertThat(label.faulty()).isTrue();
        assertThat(soundRun().faulty()).isFalse();
    }

    static Label knowledgeGap() {
        return new Label(SchemaIds.LABEL_V3, RunIds.of("support-bot", null, "evt-5"), "support-bot",
                "tei-pinecone-anthropic", "q-40", "What did the Normans export to Iceland?", null, "evt-5",
                new LabelStages(null, 0, 0, null, 0), null, null, null, null, true, false, null, "I don't know.",
                List.of(), Instant.parse("2026-01-01T00:00:02Z"), true);
    }

    @Test
    void knowledgeGapRoundTripsAndValidates() throws Exception {
        Label gap = knowledgeGap();
        assertThat(validate(gap)).isEmpty();
        assertThat(Json.MAPPER.valueToTree(gap).get("knowledge_gap").asBoolean()).isTrue();
        assertThat(Json.read(Json.write(gap), Label.class)).isEqualTo(gap);
        assertThat(gap.faulty()).isFalse();
        assertThat(gap.onlyKnowledgeGap()).isTrue();
        ObjectNode missing = Json.MAPPER.valueToTree(gap);
        missing.remove("knowledge_gap");
        assertThat(schema().validate(missing)).as("v2 and later require knowledge_gap").isNotEmpty();
    }

    @Test
    void aV1LineIsStillReadWithTheGapTakenFromAnswerability() throws Exception {
        String v1 = "{\"schema\":\"raglog.label/v1\",\"run_id\":\"run-1\",\"pipeline\":\"docs-qa\","
                + "\"profile\":\"tei-pinecone-anthropic\",\"question_id\":\"q-9\",\"question\":\"Who?\","
                + "\"run_hint\":null,\"generator_event_id\":\"evt-1\",\"stages\":{\"rewrite\":null,"
                + "\"embed\":0,\"retrieve\":null,\"rerank\":null,\"generate\":1},\"fault_stage\":\"generate\","
                + "\"fault_type\":\"generate.answered_unanswerable\",\"origin\":\"natural\",\"fault_detail\":\"x\","
                + "\"answer_correct\":false,\"is_answerable\":false,\"expected_answer\":null,\"answer\":\"Rollo\","
                + "\"evidence_chunk_ids\":[],\"started_at\":\"2026-01-01T00:00:00Z\"}";
        assertThat(schema("label.v1.json").validate(Json.MAPPER.readTree(v1))).isEmpty();
        Label read = Json.read(v1, Label.class);
        assertThat(read.schema()).isEqualTo(SchemaIds.LABEL_V1);
        assertThat(read.knowledgeGap()).isTrue();
        assertThat(read.stages().retrieve()).isNull();
        assertThat(read.onlyKnowledgeGap()).as("a generate fault is more than a gap").isFalse();
        Label answerable = Json.read(v1.replace("\"is_answerable\":false", "\"is_answerable\":true"), Label.class);
        assertThat(answerable.knowledgeGap()).isFalse();
    }

    @Test
    void aV2LineIsStillReadWithAssemblyUnlabeled() throws Exception {
        ObjectNode v2 = Json.MAPPER.valueToTree(knowledgeGap());
        v2.put("schema", SchemaIds.LABEL_V2);
        ((ObjectNode) v2.get("stages")).remove("assemble");
        assertThat(schema("label.v2.json").validate(v2)).isEmpty();
        Label read = Json.MAPPER.treeToValue(v2, Label.class);
        assertThat(read.stages().assemble()).as("not labeled: neither trained on nor scored").isNull();
        assertThat(read.stages().generate()).isEqualTo(knowledgeGap().stages().generate());
    }

    static Label reAsk() {
        return soundRun().withSession(new LabelSession("u-7", "s-1f3a", 2, LabelSession.REASK, "run-1", "run-1"));
    }

    @Test
    void aV4LabelCarriesItsSessionAndValidates() throws Exception {
        Label label = reAsk();
        assertThat(label.schema()).isEqualTo(SchemaIds.LABEL_V4);
        JsonNode encoded = Json.MAPPER.valueToTree(label);
        assertThat(schema("label.v4.json").validate(encoded)).isEmpty();
        assertThat(encoded.get("session").get("reask_of").asText()).isEqualTo("run-1");
        assertThat(encoded.get("session").get("previous_run_id").asText()).isEqualTo("run-1");
        assertThat(Json.read(Json.write(label), Label.class)).isEqualTo(label);

        Label anonymous = soundRun().withSession(new LabelSession("u-8", null, 1, LabelSession.FIRST, null, null));
        assertThat(schema("label.v4.json").validate(Json.MAPPER.valueToTree(anonymous))).isEmpty();
    }

    @Test
    void aLabelWithoutASessionIsWrittenAsV3WroteItAndV3LinesAreStillRead() throws Exception {
        Label v3 = soundRun();
        JsonNode encoded = Json.MAPPER.valueToTree(v3);
        assertThat(encoded.has("session")).isFalse();
        assertThat(schema().validate(encoded)).isEmpty();
        ObjectNode asV4 = (ObjectNode) encoded.deepCopy();
        asV4.put("schema", SchemaIds.LABEL_V4);
        assertThat(schema("label.v4.json").validate(asV4)).as("session is optional in v4").isEmpty();
        assertThat(Json.read(Json.write(v3), Label.class).session()).isNull();
    }

    @Test
    void v4RejectsAReAskWithoutTheRunItReAsks() throws Exception {
        ObjectNode encoded = Json.MAPPER.valueToTree(reAsk());
        ((ObjectNode) encoded.get("session")).put("kind", "rephrased");
        assertThat(schema("label.v4.json").validate(encoded)).isNotEmpty();
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> new LabelSession("u-1", "s", 2, LabelSession.REASK, "run-1", null))
                .hasMessageContaining("reask_of");
    }
}
