package io.raglog.sink.elasticsearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.apache.flink.util.InstantiationUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ElasticsearchSinkSettingsTest {

    private static final ElasticsearchConnection LOCAL =
            ElasticsearchConnection.builder().setHosts("http://127.0.0.1:9200").build();

    @Test
    void shouldNameTheMissingHostsAndEmitterAtBuild() {
        assertThatThrownBy(() -> ElasticsearchSink.<String>builder()
                .setEmitter(s -> BulkOperation.index("raglog-faults", s, "{}".getBytes())).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("hosts are not set");
        assertThatThrownBy(() -> ElasticsearchSink.<String>builder().setConnection(LOCAL).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("emitter is not set");
        assertThatThrownBy(() -> ElasticsearchConnection.builder().build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("hosts are not set");
    }

    @Test
    void shouldRefuseBatchingThatCannotWork() {
        ElasticsearchSink.Builder<String> builder = ElasticsearchSink.<String>builder().setConnection(LOCAL)
                .setEmitter(ElasticsearchEmitter.json("raglog-faults", s -> s));

        assertThatThrownBy(() -> builder.setMaxBatchSize(100).setMaxBufferedRequests(100).build())
                .hasMessageContaining("max buffered requests (100) must be greater than max batch size (100)");
        assertThatThrownBy(() -> builder.setMaxBufferedRequests(1000).setMaxInFlightRequests(0).build())
                .hasMessageContaining("max in-flight requests must be positive");
        assertThatThrownBy(() -> builder.setMaxInFlightRequests(1).setMaxTimeInBuffer(Duration.ZERO).build())
                .hasMessageContaining("max time in buffer must be positive");
        assertThatThrownBy(() -> builder.setMaxTimeInBuffer(Duration.ofSeconds(1)).setMaxBatchSizeInBytes(1000)
                .setMaxRecordSizeInBytes(2000).build())
                .hasMessageContaining("max record size (2000 bytes) must not exceed max batch size in bytes (1000)");
        assertThatThrownBy(() -> ElasticsearchEmitter.<String>json("Raglog-Faults", s -> s))
                .hasMessageContaining("must be lower case");
    }

    @Test
    void shouldBuildASinkThatSurvivesJavaSerialization() throws Exception {
        ElasticsearchSink<String> sink = ElasticsearchSink.<String>builder()
                .setConnection(ElasticsearchConnection.builder().setHosts("https://es.internal:9243")
                        .setApiKey("VnVhQ2ZHY0JDZGJrUW0tZTVhT3g6dWkybHAyYXhUTm1zeWFrdzl0dk5udw==").build())
                .setEmitter(ElasticsearchEmitter.json("raglog-faults", s -> s))
                .build();

        byte[] bytes = InstantiationUtil.serializeObject(sink);
        ElasticsearchSink<String> copy = InstantiationUtil.deserializeObject(bytes, getClass().getClassLoader());

        assertThat(copy.toString()).contains("https://es.internal:9243", "dead letters to [raglog-dead-letters]")
                .doesNotContain("VnVhQ2ZHY0JDZGJr");
    }

    @Test
    void shouldNeverShowCredentialsInConnectionDescriptions() {
        ElasticsearchConnection basic = ElasticsearchConnection.builder().setHosts("https://es:9200")
                .setBasicAuth("raglog_writer", "s3cret-Pa55").build();
        ElasticsearchConnection apiKey = ElasticsearchConnection.builder().setHosts("https://es:9200")
                .setApiKey("ZW5jb2RlZC1hcGkta2V5").build();

        assertThat(basic.toString()).contains("raglog_writer").doesNotContain("s3cret-Pa55");
        assertThat(apiKey.toString()).doesNotContain("ZW5jb2RlZC1hcGkta2V5");
        assertThat(Credentials.apiKey("id-1", "key-1").authorizationHeader()).isEqualTo("ApiKey aWQtMTprZXktMQ==");
        assertThat(Credentials.basic("u", "p").authorizationHeader()).isEqualTo("Basic dTpw");
        assertThatThrownBy(() -> ElasticsearchConnection.builder().setHosts("https://raglog:s3cret@es:9200"))
                .hasMessageContaining("must not carry credentials").hasMessageNotContaining("s3cret");
    }

    @Test
    void shouldNormaliseHostsAndCheckTheCaFile(@TempDir Path dir) throws Exception {
        assertThat(ElasticsearchConnection.builder().setHosts("http://localhost:9200/", " https://es:9243/es ")
                .setHosts("https://es:443").build().hosts()).containsExactly("https://es:443");
        assertThatThrownBy(() -> ElasticsearchConnection.builder().setHosts("es:9200"))
                .hasMessageContaining("must start with http:// or https://");
        assertThatThrownBy(() -> ElasticsearchConnection.builder().setHosts("https://es:9200")
                .setCaCertificate(dir.resolve("missing.crt")).build())
                .hasMessageContaining("missing.crt does not exist");
        Path ca = Files.writeString(dir.resolve("ca.crt"), "not a certificate");
        assertThatThrownBy(() -> ElasticsearchConnection.builder().setHosts("http://es:9200").setCaCertificate(ca)
                .build()).hasMessageContaining("no Elasticsearch host uses https://");
        ElasticsearchConnection broken = ElasticsearchConnection.builder().setHosts("https://es:9200")
                .setCaCertificate(ca).build();
        assertThatThrownBy(broken::openClient).isInstanceOf(ElasticsearchSinkException.class)
                .hasMessageContaining("cannot use the Elasticsearch CA certificate file");
    }

    @Test
    void shouldBackOffExponentiallyUpToTheCap() {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(2));

        assertThat(backoff.delayMs(1)).isBetween(80L, 120L);
        assertThat(backoff.delayMs(3)).isBetween(320L, 480L);
        assertThat(backoff.delayMs(10)).isBetween(1600L, 2000L);
        assertThat(backoff.delayMs(1_000)).isBetween(1600L, 2000L);
        assertThatThrownBy(() -> new Backoff(Duration.ofSeconds(2), Duration.ofSeconds(1)))
                .hasMessageContaining("must be at least the initial");
    }

    @Test
    void shouldTurnARefusedDocumentIntoAStableDeadLetterWithTheOriginalVerbatim() throws Exception {
        String original = "{\"run_id\":\"run-9\",\"scored_at\":\"yesterday\"}";
        RejectedDocument rejected = new RejectedDocument(
                BulkOperation.index("raglog-faults", "run-9", original.getBytes(StandardCharsets.UTF_8)), 400,
                "mapper_parsing_exception", "failed to parse field [scored_at] of type [date]");
        BulkFailureHandler handler = BulkFailureHandlers.deadLetterIndex("raglog-dead-letters");

        Optional<BulkOperation> letter = handler.onRejected(rejected);

        assertThat(letter).isPresent();
        assertThat(letter.get().index()).isEqualTo("raglog-dead-letters");
        assertThat(letter.get().id()).isEqualTo("raglog-faults/run-9");
        JsonNode doc = Json.MAPPER.readTree(letter.get().document());
        assertThat(doc.get("schema").asText()).isEqualTo(BulkFailureHandlers.DEAD_LETTER_SCHEMA);
        assertThat(doc.get("index").asText()).isEqualTo("raglog-faults");
        assertThat(doc.get("doc_id").asText()).isEqualTo("run-9");
        assertThat(doc.get("status").asInt()).isEqualTo(400);
        assertThat(doc.get("error_type").asText()).isEqualTo("mapper_parsing_exception");
        assertThat(doc.get("document").asText()).isEqualTo(original);
        assertThat(handler.onRejected(rejected).get().id()).isEqualTo(letter.get().id());
    }

    @Test
    void shouldFailTheJobWhenADeadLetterIsItselfRefusedOrWhenAskedTo() {
        RejectedDocument deadLetterRefused = new RejectedDocument(
                BulkOperation.index("raglog-dead-letters", "raglog-faults/run-9", "{}".getBytes()), 403,
                "cluster_block_exception", "index [raglog-dead-letters] blocked by: [FORBIDDEN/8/index write]");
        RejectedDocument mappingError = new RejectedDocument(
                BulkOperation.index("raglog-faults", "run-9", "{\"question\":\"private\"}".getBytes()), 400,
                "mapper_parsing_exception", "failed to parse field [scored_at]");

        assertThatThrownBy(() -> BulkFailureHandlers.deadLetterIndex("raglog-dead-letters")
                .onRejected(deadLetterRefused))
                .isInstanceOf(ElasticsearchSinkException.class).hasMessageContaining("dead-letter index refused");
        assertThatThrownBy(() -> BulkFailureHandlers.failJob().onRejected(mappingError))
                .isInstanceOf(ElasticsearchSinkException.class)
                .hasMessageContaining("index [raglog-faults] _id [run-9]")
                .hasMessageContaining("400 mapper_parsing_exception: failed to parse field [scored_at]")
                .hasMessageNotContaining("private");
    }
}
