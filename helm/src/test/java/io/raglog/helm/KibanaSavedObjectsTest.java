package io.raglog.helm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The triage view of raglog-faults: the NDJSON Kibana imports, checked against the Verdict and FaultRate schemas. */
class KibanaSavedObjectsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final List<String> STAGES = List.of("rewrite", "embed", "retrieve", "rerank", "assemble", "generate");

    @Test
    void shouldShipOneImportableSavedObjectPerLine() {
        List<JsonNode> objects = savedObjects();

        assertThat(objects).allSatisfy(o -> {
            assertThat(o.path("id").asText()).isNotBlank();
            assertThat(o.path("type").asText()).isIn("index-pattern", "visualization", "search", "dashboard");
            assertThat(o.path("attributes").path("title").asText()).isNotBlank();
        });
        assertThat(objects).extracting(o -> o.path("id").asText()).doesNotHaveDuplicates();
    }

    @Test
    void shouldResolveEveryReferenceWithinTheFile() {
        Map<String, String> typeById = new HashMap<>();
        savedObjects().forEach(o -> typeById.put(o.path("id").asText(), o.path("type").asText()));

        assertThat(savedObjects()).allSatisfy(o -> o.path("references").forEach(ref ->
                assertThat(typeById.get(ref.path("id").asText())).as("%s → %s", o.path("id").asText(), ref)
                        .isEqualTo(ref.path("type").asText())));
    }

    @Test
    void shouldIndexTheFaultsByTheTimeTheyWereScored() {
        JsonNode faults = byId("raglog-faults");

        assertThat(faults.path("type").asText()).isEqualTo("index-pattern");
        assertThat(faults.path("attributes").path("title").asText()).isEqualTo("raglog-faults*");
        assertThat(faults.path("attributes").path("timeFieldName").asText()).isEqualTo("scored_at");
        assertThat(byId("raglog-fault-rates").path("attributes").path("timeFieldName").asText()).isEqualTo("window_end");
    }

    @Test
    void shouldListFlaggedRunsWithQuestionEvidenceAndRepairHintNewestFirst() {
        JsonNode queue = byId("raglog-debugging-queue").path("attributes");

        List<String> columns = new ArrayList<>();
        queue.path("columns").forEach(c -> columns.add(c.asText()));
        assertThat(columns).startsWith("pipeline", "flagged_stages", "question");
        for (String stage : STAGES) {
            assertThat(columns).contains("stages." + stage + ".evidence", "stages." + stage + ".repair_hint");
            JsonNode perStage = byId("raglog-queue-" + stage).path("attributes");
            assertThat(query(perStage)).isEqualTo("flagged_stages : \"" + stage + "\"");
        }
        assertThat(queue.path("sort").get(0)).extracting(JsonNode::asText).containsExactly("scored_at", "desc");
        // the queue's other reasons, each with the people it is for
        assertThat(query(byId("raglog-queue-knowledge-gap").path("attributes")))
                .isEqualTo("queue_reasons : \"knowledge_gap\"");
        assertThat(query(byId("raglog-queue-user-feedback").path("attributes")))
                .isEqualTo("queue_reasons : \"user_feedback\"");
    }

    @Test
    void shouldChartFaultsByStageAndPipelineOverTime() {
        assertThat(aggregatedFields(byId("raglog-faults-by-stage")))
                .containsExactly("scored_at", "flagged_stages");
        assertThat(aggregatedFields(byId("raglog-faults-by-pipeline"))).containsExactly("scored_at", "pipeline");
        assertThat(aggregatedFields(byId("raglog-faults-pipeline-stage"))).containsExactly("pipeline", "flagged_stages");

        JsonNode dashboard = byId("raglog-triage");
        assertThat(dashboard.path("references")).extracting(r -> r.path("id").asText())
                .contains("raglog-faults-by-stage", "raglog-faults-by-pipeline", "raglog-debugging-queue");
    }

    @Test
    void shouldUseOnlyFieldsTheRecordsHave() throws IOException {
        JsonNode verdict = JSON.readTree(Repo.read("schemas/src/main/resources/schemas/verdict.v4.json"));
        JsonNode faultRate = JSON.readTree(Repo.read("schemas/src/main/resources/schemas/fault-rate.v4.json"));

        for (JsonNode o : savedObjects()) {
            String index = indexOf(o);
            JsonNode schema = "raglog-fault-rates".equals(index) ? faultRate : verdict;
            List<String> fields = new ArrayList<>(aggregatedFields(o));
            o.path("attributes").path("columns").forEach(c -> fields.add(c.asText()));
            for (String field : fields) {
                assertThat(hasField(schema, field)).as("%s uses %s, which %s does not have", o.path("id").asText(),
                        field, schema.path("$id").asText()).isTrue();
            }
        }
    }

    private static List<JsonNode> savedObjects() {
        String ndjson = Chart.render().get("ConfigMap", Chart.FULLNAME + "-kibana").path("data")
                .path("raglog-kibana.ndjson").asText();
        List<JsonNode> out = new ArrayList<>();
        for (String line : ndjson.split("\n")) {
            if (!line.isBlank()) {
                try {
                    out.add(JSON.readTree(line));
                } catch (IOException e) {
                    throw new AssertionError("not a JSON line: " + line, e);
                }
            }
        }
        assertThat(out).hasSizeGreaterThanOrEqualTo(5);
        return out;
    }

    private static JsonNode byId(String id) {
        return savedObjects().stream().filter(o -> id.equals(o.path("id").asText())).findFirst()
                .orElseThrow(() -> new AssertionError("no saved object " + id));
    }

    private static String indexOf(JsonNode o) {
        for (JsonNode ref : o.path("references")) {
            if ("index-pattern".equals(ref.path("type").asText())) {
                return ref.path("id").asText();
            }
        }
        return null;
    }

    private static String query(JsonNode attributes) {
        try {
            return JSON.readTree(attributes.path("kibanaSavedObjectMeta").path("searchSourceJSON").asText())
                    .path("query").path("query").asText();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    /** The fields a visualization's aggregations read, in order. */
    private static List<String> aggregatedFields(JsonNode o) {
        List<String> fields = new ArrayList<>();
        String visState = o.path("attributes").path("visState").asText();
        if (visState.isEmpty()) {
            return fields;
        }
        try {
            JSON.readTree(visState).path("aggs").forEach(a -> {
                if (a.path("params").has("field")) {
                    fields.add(a.path("params").path("field").asText());
                }
            });
        } catch (IOException e) {
            throw new AssertionError("visState of " + o.path("id").asText() + " is not JSON", e);
        }
        return fields;
    }

    /** Follows a dotted path through a JSON Schema's properties, through local $refs. */
    private static boolean hasField(JsonNode schema, String dotted) {
        JsonNode node = schema;
        for (String part : dotted.split("\\.")) {
            while (node.has("$ref")) {
                String[] pointer = node.path("$ref").asText().replaceFirst("^#/", "").split("/");
                JsonNode target = schema;
                for (String p : pointer) {
                    target = target.path(p);
                }
                node = target;
            }
            node = node.path("properties").path(part);
            if (node.isMissingNode()) {
                return false;
            }
        }
        return true;
    }
}
