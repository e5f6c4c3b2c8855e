package io.raglog.sink.elasticsearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class BulkResponseTest {

    private static final List<BulkOperation> THREE = List.of(op("run-1"), op("run-2"), op("run-3"));

    @Test
    void shouldCountEverythingWrittenWhenTheReplyHasNoErrors() throws IOException {
        String reply = "{\"took\":30,\"errors\":false,\"items\":["
                + item("run-1", 201, null) + "," + item("run-2", 200, null) + "," + item("run-3", 201, null) + "]}";

        BulkResponse.Outcome outcome = BulkResponse.read(bytes(reply), THREE);

        assertThat(outcome.allWritten()).isTrue();
        assertThat(outcome.written()).isEqualTo(3);
    }

    @Test
    void shouldSeparateRetryableItemsFromRefusedOnes() throws IOException {
        String reply = "{\"took\":12,\"errors\":true,\"items\":["
                + item("run-1", 201, null) + ","
                + item("run-2", 429, "{\"type\":\"es_rejected_execution_exception\",\"reason\":\"rejected execution"
                        + " of coordinating operation [shard_detail=[raglog-faults][0][P]]\"}") + ","
                + item("run-3", 400, "{\"type\":\"mapper_parsing_exception\",\"reason\":\"failed to parse field"
                        + " [scored_at] of type [date] in document with id 'run-3'. Preview of field's value: "
                        + "'yesterday'\",\"caused_by\":{\"type\":\"illegal_argument_exception\",\"reason\":"
                        + "\"failed to parse date field [yesterday] with format [strict_date_optional_time||"
                        + "epoch_millis]\"}}") + "]}";

        BulkResponse.Outcome outcome = BulkResponse.read(bytes(reply), THREE);

        assertThat(outcome.written()).isEqualTo(1);
        assertThat(outcome.retryable()).extracting(BulkOperation::id).containsExactly("run-2");
        assertThat(outcome.retryReason()).startsWith("429 es_rejected_execution_exception");
        assertThat(outcome.rejected()).singleElement().satisfies(rejected -> {
            assertThat(rejected.operation().id()).isEqualTo("run-3");
            assertThat(rejected.status()).isEqualTo(400);
            assertThat(rejected.errorType()).isEqualTo("mapper_parsing_exception");
            assertThat(rejected.errorReason()).contains("failed to parse field [scored_at]")
                    .contains("caused by illegal_argument_exception");
        });
    }

    @Test
    void shouldRetryUnavailableShardsAfterARestartEvenThoughTheyAreNotA429() throws IOException {
        String reply = "{\"errors\":true,\"items\":[" + item("run-1", 503, "{\"type\":\"unavailable_shards_exception\","
                + "\"reason\":\"[raglog-faults][0] primary shard is not active\"}") + "]}";

        BulkResponse.Outcome outcome = BulkResponse.read(bytes(reply), List.of(op("run-1")));

        assertThat(outcome.retryable()).hasSize(1);
        assertThat(outcome.rejected()).isEmpty();
    }

    @Test
    void shouldRefuseAReplyThatDoesNotMatchTheRequest() {
        String reply = "{\"errors\":false,\"items\":[" + item("run-1", 201, null) + "]}";

        assertThatThrownBy(() -> BulkResponse.read(bytes(reply), THREE))
                .isInstanceOf(IOException.class).hasMessageContaining("1 items for 3 operations");
        assertThatThrownBy(() -> BulkResponse.read(bytes("<html>bad gateway</html>"), THREE))
                .isInstanceOf(IOException.class);
    }

    @Test
    void shouldShortenLongReasonsSoALogLineNeverCarriesADocument() {
        String longReason = "x".repeat(5000);

        assertThat(BulkResponse.shorten(longReason)).hasSize(BulkResponse.MAX_REASON_CHARS + 3).endsWith("...");
    }

    @Test
    void shouldClassifyStatusesAsRetryableOnlyWhenTheyMeanNotNow() {
        assertThat(BulkResponse.isRetryable(429, "x")).isTrue();
        assertThat(BulkResponse.isRetryable(503, "x")).isTrue();
        assertThat(BulkResponse.isRetryable(500, "x")).isTrue();
        assertThat(BulkResponse.isRetryable(400, "mapper_parsing_exception")).isFalse();
        assertThat(BulkResponse.isRetryable(404, "index_not_found_exception")).isFalse();
        assertThat(BulkResponse.isRetryable(400, "es_rejected_execution_exception")).isTrue();
    }

    private static String item(String id, int status, String error) {
        return "{\"index\":{\"_index\":\"raglog-faults\",\"_type\":\"_doc\",\"_id\":\"" + id + "\",\"status\":" + status
                + (error == null ? ",\"result\":\"created\",\"_version\":1" : ",\"error\":" + error) + "}}";
    }

    private static BulkOperation op(String id) {
        return BulkOperation.index("raglog-faults", id, bytes("{\"run_id\":\"" + id + "\"}"));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
