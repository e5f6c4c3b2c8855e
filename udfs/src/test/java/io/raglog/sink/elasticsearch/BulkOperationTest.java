package io.raglog.sink.elasticsearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.flink.connector.base.sink.writer.BufferedRequestState;
import org.apache.flink.connector.base.sink.writer.RequestEntryWrapper;
import org.junit.jupiter.api.Test;

class BulkOperationTest {

    @Test
    void shouldEncodeOneActionLineAndOneDocumentLinePerOperationWithEscapedIds() throws Exception {
        BulkOperation quoted = BulkOperation.index("raglog-faults", "run \"7\"\\a",
                utf8("{\"question\":\"Wie hoch war der Cashflow 2023?\"}"));
        BulkOperation plain = BulkOperation.index("raglog-fault-rates", "rag-a|rewrite|2026-11-29T10:00:00Z",
                utf8("{\"rate\":0.25}"));

        String body = new String(BulkRequestBody.encode(List.of(quoted, plain)), StandardCharsets.UTF_8);

        String[] lines = body.split("\n", -1);
        assertThat(lines).hasSize(5);
        assertThat(lines[4]).isEmpty(); // _bulk wants the body to end with a newline
        JsonNode action = Json.MAPPER.readTree(lines[0]).get("index");
        assertThat(action.get("_index").asText()).isEqualTo("raglog-faults");
        assertThat(action.get("_id").asText()).isEqualTo("run \"7\"\\a");
        assertThat(Json.MAPPER.readTree(lines[1]).get("question").asText()).isEqualTo("Wie hoch war der Cashflow 2023?");
        assertThat(Json.MAPPER.readTree(lines[2]).get("index").get("_id").asText())
                .isEqualTo("rag-a|rewrite|2026-11-29T10:00:00Z");
    }

    @Test
    void shouldPutAPrettyPrintedDocumentOnOneLineWithoutChangingItsContent() throws Exception {
        String pretty = "{\n  \"run_id\" : \"r1\",\n  \"answer\" : \"line one\\nline two\"\n}";

        BulkOperation op = BulkOperation.index("raglog-faults", "r1", utf8(pretty));

        String document = new String(op.document(), StandardCharsets.UTF_8);
        assertThat(document).doesNotContain("\n");
        assertThat(Json.MAPPER.readTree(document)).isEqualTo(Json.MAPPER.readTree(pretty));
    }

    @Test
    void shouldNameWhatIsWrongWithAnOperation() {
        byte[] doc = utf8("{}");
        assertThatThrownBy(() -> BulkOperation.index("Raglog-Faults", "r1", doc)).hasMessageContaining("lower case");
        assertThatThrownBy(() -> BulkOperation.index("raglog faults", "r1", doc)).hasMessageContaining("' '");
        assertThatThrownBy(() -> BulkOperation.index("_raglog", "r1", doc)).hasMessageContaining("must not start");
        assertThatThrownBy(() -> BulkOperation.index("raglog-faults", "", doc)).hasMessageContaining("id is missing");
        assertThatThrownBy(() -> BulkOperation.index("raglog-faults", "r".repeat(513), doc))
                .hasMessageContaining("longer than 512 bytes");
        assertThatThrownBy(() -> BulkOperation.index("raglog-faults", "r1", new byte[0]))
                .hasMessageContaining("document is empty for _id [r1]");
        assertThatThrownBy(() -> BulkOperation.index("raglog-faults", "r1", utf8("{\n\"secret\": ")))
                .hasMessageContaining("not valid JSON").hasMessageNotContaining("secret");
    }

    @Test
    void shouldLeaveTheDocumentOutOfItsDescription() {
        BulkOperation op = BulkOperation.index("raglog-faults", "r1",
                utf8("{\"question\":\"what is my account number 12345\"}"));

        assertThat(op.toString()).contains("raglog-faults", "r1").doesNotContain("account");
    }

    @Test
    void shouldKeepBufferedOperationsExactlyAcrossACheckpoint() throws Exception {
        List<RequestEntryWrapper<BulkOperation>> buffered = new ArrayList<>();
        for (BulkOperation op : List.of(
                BulkOperation.index("raglog-faults", "run-ä-1", utf8("{\"question\":\"Größe des Umsatzes?\"}")),
                BulkOperation.index("raglog-fault-rates", "p|generate|w", utf8("{\"rate\":0.5}")))) {
            buffered.add(new RequestEntryWrapper<>(op, op.sizeInBytes()));
        }
        BulkOperationStateSerializer serializer = new BulkOperationStateSerializer();

        byte[] state = serializer.serialize(new BufferedRequestState<>(buffered));
        BufferedRequestState<BulkOperation> restored = serializer.deserialize(serializer.getVersion(), state);

        Collection<RequestEntryWrapper<BulkOperation>> entries = restored.getBufferedRequestEntries();
        assertThat(entries).extracting(RequestEntryWrapper::getRequestEntry)
                .containsExactlyElementsOf(buffered.stream().map(RequestEntryWrapper::getRequestEntry).toList());
        assertThat(entries).extracting(RequestEntryWrapper::getSize)
                .containsExactlyElementsOf(buffered.stream().map(RequestEntryWrapper::getSize).toList());
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
