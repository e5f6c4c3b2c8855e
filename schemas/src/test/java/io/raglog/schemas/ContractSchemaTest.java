package io.raglog.schemas;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.networknt.schema.JsonSchema;
import com.networknt.schema.JsonSchemaFactory;
import com.networknt.schema.SpecVersion;
import com.networknt.schema.ValidationMessage;
import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import static org.assertj.core.api.Assertions.assertThat;


/** The JSON Schema files are the source of truth: what the Java records encode must validate against them. */
class ContractSchemaTest {

    private static JsonSchema schema(String file) throws Exception {
        try (InputStream in = ContractSchemaTest.class.getResourceAsStream("/schemas/" + file)) {
            assertThat(in).as("schema file %s on the classpath", file).isNotNull();
            return JsonSchemaFactory.getInstance(SpecVersion.VersionFlag.V202012).getSchema(Json.MAPPER.readTree(in));
        }
    }

    private static Set<ValidationMessage> validate(String file, Object record) throws Exception {
        JsonNode encoded = Json.MAPPER.valueToTree(record);
        return schema(file).validate(encoded);
    }

    static CallEvent sampleCall() {
        JsonNodeFactory f = JsonNodeFactory.instance;
        return new CallEvent(SchemaIds.CALL_V1, "evt-1", "support-bot", "4bf92f3577b34da6a3ce929d0e0e4736",
                Instant.parse("2026-11-29T10:00:00.120Z"), Instant.parse("2026-11-29T10:00:00.480Z"),
                new HttpRequest("POST", "https://api.openai.com/v1/embeddings",
                        Map.of("content-type", "application/json"),
                        f.objectNode().put("model", "text-embedding-3-small").put("input", "cash flow 2023")),
                new HttpResponse(200, Map.of("content-type", "application/json"), f.objectNode().put("object", "list")),
                CallEvent.SOURCE_PROXY);
    }

    static Run sampleRun(boolean incomplete) {
        Passage p1 = new Passage("doc-7#2", "Operating cash flow in 2023 was $4.1bn.", 0.83, 1);
        Passage p2 = new Passage("doc-3#0", "Revenue grew 12% in 2022.", 0.71, 2);
        return new Run(SchemaIds.RUN_V3, "r-1", "support-bot", null, "What was the operating cash flow in 2023?",
                Instant.parse("2026-11-29T10:00:00Z"), Instant.parse("2026-11-29T10:00:02Z"),
                incomplete, incomplete ? "no generator call within 120s" : null,
                List.of("a", "b", "c", "d", "e"), List.of(new HttpError("x", Stage.GENERATE, 429)),
                new RunStages(
                        new RewriteStage(true, 300, List.of("a"), "gpt-4o-mini",
                                "What was the operating cash flow in 2023?", List.of("operating cash flow 2023")),
                        new EmbedStage(true, 80, List.of("b"), "text-embedding-3-small",
                                List.of("operating cash flow 2023"), 1536),
                        new RetrieveStage(true, 20, List.of("c"), "qdrant", null, 10, List.of(p1, p2), false),
                        incomplete ? RerankStage.absent()
                                : new RerankStage(true, 120, List.of("d"), "rerank-v3.5", "operating cash flow 2023",
                                        List.of(p1, p2), List.of(p1.withRank(1)), 1),
                        incomplete ? GenerateStage.absent()
                                : new GenerateStage(true, 900, List.of("e"), "gpt-4o", List.of(p1),
                                        "Context:\n...\nQuestion: ...", "$4.1bn.", new TokenUsage(412, 9), true)));
    }

    @Test
    void encodedCallEventValidatesAgainstItsSchema() throws Exception {
        assertThat(validate("call.v1.json", sampleCall())).isEmpty();
    }

    @Test
    void aCallsSessionIsAnOptionalFieldWithinV1() throws Exception {
        CallEvent withSession = sampleCall().withSession("s-1f3a");
        assertThat(validate("call.v1.json", withSession)).isEmpty();
        assertThat(Json.read(Json.write(withSession), CallEvent.class)).isEqualTo(withSession);
        assertThat(Json.MAPPER.valueToTree(sampleCall()).has("session"))
                .as("a call without one is written as before sessions existed").isFalse();
        assertThat(Json.read(Json.write(sampleCall()), CallEvent.class).session()).isNull();
    }

    @Test
    void encodedRunValidatesAgainstItsSchema() throws Exception {
        assertThat(validate("run.v3.json", sampleRun(false))).isEmpty();
        assertThat(validate("run.v3.json", sampleRun(true))).isEmpty();
        assertThat(validate("run.v3.json", withAssembly(sampleRun(false)))).isEmpty();
    }

    @Test
    void aV2RunIsStillReadAndOnlyV3NamesAnExtractedPassage() throws Exception {
        ObjectNode v2 = Json.MAPPER.valueToTree(withAssembly(sampleRun(false)));
        v2.put("schema", SchemaIds.RUN_V2);
        assertThat(schema("run.v2.json").validate(v2)).isEmpty();
        assertThat(Json.MAPPER.treeToValue(v2, Run.class).stages().assemble())
                .isEqualTo(withAssembly(sampleRun(false)).stages().assemble());

        ObjectNode v3 = Json.MAPPER.valueToTree(withExtract(sampleRun(false)));
        assertThat(schema("run.v3.json").validate(v3)).isEmpty();
        assertThat(v3.at("/stages/assemble/passages/1/fate").asText()).isEqualTo("extracted");
        assertThat(Json.MAPPER.treeToValue(v3, Run.class)).isEqualTo(withExtract(sampleRun(false)));
        v3.put("schema", SchemaIds.RUN_V2);
        assertThat(schema("run.v2.json").validate(v3)).isNotEmpty();
    }

    @Test
    void aV1RunIsStillReadWithAssemblyAbsent() throws Exception {
        ObjectNode v1 = Json.MAPPER.valueToTree(sampleRun(false));
        v1.put("schema", SchemaIds.RUN_V1);
        ((ObjectNode) v1.get("stages")).remove("assemble");
        assertThat(schema("run.v1.json").validate(v1)).isEmpty();
        Run read = Json.MAPPER.treeToValue(v1, Run.class);
        assertThat(read.stages().assemble()).isEqualTo(AssembleStage.absent());
        assertThat(read.has(Stage.ASSEMBLE)).isFalse();
        assertThat(read.stages().generate()).isEqualTo(sampleRun(false).stages().generate());
    }

    /** The sample run with its assembly read: passage doc-7#2 kept whole, doc-3#0 cut after 12 characters. */
    static Run withAssembly(Run run) {
        return withAssembly(run, PassageFate.Fate.CUT);
    }

    /** The same with doc-3#0 extracted: 12 of its characters reached the prompt as an extract. */
    static Run withExtract(Run run) {
        return withAssembly(run, PassageFate.Fate.EXTRACTED);
    }

    private static Run withAssembly(Run run, PassageFate.Fate second) {
        AssembleStage assemble = new AssembleStage(true, AssembleStage.BY_RERANK, List.of(
                new PassageFate("doc-7#2", 1, PassageFate.Fate.WHOLE, 1, 39, 39),
                new PassageFate("doc-3#0", 2, second, 2, 25, 12)), 412, 128_000);
        return new Run(run.schema(), run.runId(), run.pipeline(), run.runHint(), run.question(), run.startedAt(),
                run.endedAt(), run.incomplete(), run.incompleteReason(), run.callIds(), run.httpErrors(),
                run.stages().withAssemble(assemble));
    }

    @Test
    void encodedDeadLetterValidatesAgainstItsSchema() throws Exception {
        DeadLetter dl = new DeadLetter(SchemaIds.DEAD_LETTER_V1, "raglog.calls", 0, 42, "not JSON",
                Instant.now(), "{oops", null);
        assertThat(validate("dead-letter.v1.json", dl)).isEmpty();
    }

    @Test
    void schemaRejectsACallWithoutPipeline() throws Exception {
        JsonNode encoded = Json.MAPPER.valueToTree(sampleCall());
        ((com.fasterxml.jackson.databind.node.ObjectNode) encoded).remove("pipeline");
        assertThat(schema("call.v1.json").validate(encoded))
                .extracting(ValidationMessage::getMessage)
                .anySatisfy(m -> assertThat(m).contains("pipeline"));
    }

    @Test
    void recordsRoundTripThroughJson() {
        CallEvent call = sampleCall();
        assertThat(Json.read(Json.write(call), CallEvent.class)).isEqualTo(call);
        Run run = sampleRun(false);
        assertThat(Json.read(Json.write(run), Run.class)).isEqualTo(run);
    }

    @Test
    void wireNamesAreSnakeCase() {
        String json = Json.write(sampleRun(false));
        assertThat(json).contains("\"run_id\"", "\"incomplete_reason\"", "\"latency_ms\"", "\"top_n\"",
                "\"input_tokens\"", "\"stage\":\"generate\"");
    }
}
