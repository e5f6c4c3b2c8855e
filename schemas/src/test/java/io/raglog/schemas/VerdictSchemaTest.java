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

/** What the scoring step writes must validate against {@code verdict.v3.json}, absent stages and all; v2 and v1 still read. */
class VerdictSchemaTest {

    private static JsonSchema schema() throws Exception {
        return schema("verdict.v3.json");
    }

    private static JsonSchema schema(String file) throws Exception {
        try (InputStream in = VerdictSchemaTest.class.getResourceAsStream("/schemas/" + file)) {
            assertThat(in).as(file + " on the classpath").isNotNull();
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
        return new Verdict(Verdict.SCHEMA_V3, "run-1", "support-bot", "What was the operating cash flow in 2023?",
                "I don't know.",
                new VerdictStages(StageVerdict.absent(), sound(0.02), retrieve, rerank, sound(0.1)),
                List.of(Stage.RERANK), true, new KnowledgeGap(false, 0.1, List.of(), null, false),
                new LlmUsage(5, 2400, 310, 0.0021, false, List.of(), "offline-judge/v1"),
                "raglog-default@3f2a9c0d1e4b", Instant.parse("2026-11-29T10:00:03Z"));
    }

    /** The model probabilities as Jackson's bean serializer wrote them before they had a writer of their own. */
    private record BeanProbabilities(double logisticRegression, double gradientBoostedTrees, double extraTrees) {}

    @Test
    void modelProbabilitiesAreWrittenAsTheBeanSerializerWroteThemAndReadBack() throws Exception {
        java.util.Random random = new java.util.Random(27);
        double[] edges = {0, -0.0, 1, 1e-300, 0.1 + 0.2, Double.MIN_VALUE, Double.NaN, 2.0E-3, 123456789.125};
        for (int i = 0; i < 5_000; i++) {
            double a = i < edges.length ? edges[i] : random.nextDouble();
            double b = random.nextInt(4) == 0 ? edges[random.nextInt(edges.length)] : random.nextDouble();
            double c = Math.scalb(random.nextDouble(), random.nextInt(40) - 20);
            StageVerdict.ModelProbabilities written = new StageVerdict.ModelProbabilities(a, b, c);
            String json = Json.write(written);
            assertThat(json).isEqualTo(Json.write(new BeanProbabilities(a, b, c)));
            assertThat(new String(Json.writeBytes(written), java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(json);
            assertThat(Json.read(json, StageVerdict.ModelProbabilities.class)).isEqualTo(written);
        }
    }

    @Test
    void encodedVerdictValidatesAgainstItsSchema() throws Exception {
        assertThat(validate(reassignedRun())).isEmpty();
    }

    @Test
    void aTracedVerdictValidatesRoundTripsAndAnUntracedOneHasNoTraceKey() throws Exception {
        Verdict traced = reassignedRun().withTrace(new TraceLink("5b8efff798038103d269b633813fc60c",
                java.util.Map.of("rerank", "eee19b7ec3c1b174")));

        assertThat(validate(traced)).isEmpty();
        assertThat(Json.read(Json.write(traced), Verdict.class)).isEqualTo(traced);
        assertThat(Json.MAPPER.valueToTree(reassignedRun()).has("trace")).isFalse();
        ObjectNode badSpan = Json.MAPPER.valueToTree(traced);
        ((ObjectNode) badSpan.get("trace").get("span_ids")).put("answer", "eee19b7ec3c1b174");
        assertThat(schema().validate(badSpan)).isNotEmpty();
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

    /** Only a knowledge gap: no stage flagged, retrieval's flag cleared because nothing in the corpus answers. */
    static Verdict knowledgeGapOnly() {
        StageVerdict retrieve = new StageVerdict(true, 0.74, 0.55, false,
                List.of("cleared: the run was decided a knowledge gap, and retrieval cannot return what the knowledge"
                        + " base does not hold"), null,
                new StageVerdict.ModelProbabilities(0.7, 0.8, 0.6));
        KnowledgeGap gap = new KnowledgeGap(true, 0.92,
                List.of("the question asks for 'Normans' exports to Iceland'", "no retrieved or reranked passage holds it",
                        "the answer refused"),
                "Add content about Normans' exports to Iceland to the knowledge base.", true);
        return new Verdict(Verdict.SCHEMA_V3, "run-2", "docs-qa", "What did the Normans export to Iceland?",
                "I don't know.", new VerdictStages(StageVerdict.absent(), sound(0.02), retrieve,
                        StageVerdict.absent(), sound(0.1)),
                List.of(), false, gap, new LlmUsage(3, 1200, 90, null, false, List.of(), "offline-judge/v1"),
                "raglog-default@3f2a9c0d1e4b", Instant.parse("2026-11-29T10:00:04Z"));
    }

    @Test
    void aKnowledgeGapRoundTripsValidatesAndGoesToTheQueue() throws Exception {
        Verdict gap = knowledgeGapOnly();
        assertThat(validate(gap)).isEmpty();
        assertThat(Json.read(Json.write(gap), Verdict.class)).isEqualTo(gap);
        assertThat(gap.flagged()).isFalse();
        assertThat(gap.queued()).isTrue();
        assertThat(Json.MAPPER.valueToTree(gap).get("queue_reasons").toString()).isEqualTo("[\"knowledge_gap\"]");
        assertThat(Json.MAPPER.valueToTree(reassignedRun()).get("queue_reasons").toString())
                .isEqualTo("[\"rerank\"]");
        assertThat(reassignedRun().knowledgeGap().flagged()).isFalse();
        ObjectNode noHint = Json.MAPPER.valueToTree(gap);
        ((ObjectNode) noHint.get("knowledge_gap")).putNull("repair_hint");
        assertThat(schema().validate(noHint)).as("a decided gap needs its repair hint").isNotEmpty();
        ObjectNode missing = Json.MAPPER.valueToTree(gap);
        missing.remove("knowledge_gap");
        assertThat(schema().validate(missing)).as("v2 and later require knowledge_gap").isNotEmpty();
    }

    @Test
    void aV1VerdictIsStillReadAsUndecided() throws Exception {
        ObjectNode v1 = Json.MAPPER.valueToTree(reassignedRun());
        v1.remove("knowledge_gap");
        v1.remove("queue_reasons");
        v1.put("schema", Verdict.SCHEMA_V1);
        ((ObjectNode) v1.get("stages")).remove("assemble");
        assertThat(schema("verdict.v1.json").validate(v1)).isEmpty();
        Verdict read = Json.MAPPER.treeToValue(v1, Verdict.class);
        assertThat(read.schema()).isEqualTo(Verdict.SCHEMA_V1);
        assertThat(read.knowledgeGap()).isEqualTo(KnowledgeGap.undecided());
        assertThat(read.flaggedStages()).containsExactly(Stage.RERANK);
        assertThat(read.queued()).isTrue();
    }

    @Test
    void aV2VerdictIsStillReadWithAssemblyAbsent() throws Exception {
        ObjectNode v2 = Json.MAPPER.valueToTree(reassignedRun());
        v2.put("schema", Verdict.SCHEMA_V2);
        ((ObjectNode) v2.get("stages")).remove("assemble");
        assertThat(schema("verdict.v2.json").validate(v2)).isEmpty();
        Verdict read = Json.MAPPER.treeToValue(v2, Verdict.class);
        assertThat(read.stages().assemble()).isEqualTo(StageVerdict.absent());
        assertThat(read.flaggedStages()).containsExactly(Stage.RERANK);
    }
}
