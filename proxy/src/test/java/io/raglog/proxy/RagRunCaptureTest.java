package io.raglog.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A whole RAG run through the proxy into the file sink, kept at {@link #CAPTURED} for the job's tests to replay into a
 * Run: what the proxy writes is what {@code raglog replay --calls} reads.
 */
class RagRunCaptureTest {

    /** Under the module's build directory; the job module's replay test reads a copy of it. */
    static final Path CAPTURED = Path.of("target", "captured", "openai-qdrant-cohere-run.jsonl");
    static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

    @Test
    void shouldRecordAWholeRunAsFiveCallEventsSharingItsRunHint() throws Exception {
        Files.deleteIfExists(CAPTURED);
        try (FakeUpstream upstream = RagRun.upstream()) {
            String base = upstream.baseUri().toString();
            try (LoggingProxy proxy = LoggingProxy.start(ProxyConfig.builder()
                    .listenOnEphemeralPort()
                    .route(Route.prefix("/openai", base))
                    .route(Route.prefix("/qdrant", base))
                    .route(Route.prefix("/cohere", base))
                    .defaultPipeline("support-assistant")
                    .sink(SinkSpec.file(CAPTURED))
                    .build())) {
                RagRun.send(HttpClient.newHttpClient(), proxy.baseUri(),
                        Map.of("traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b7-01"));
                new CallLog(CAPTURED).awaitEvents(5);
            }
            List<CallEvent> calls = new CallLog(CAPTURED).awaitEvents(5);

            assertThat(calls).hasSize(5);
            assertThat(calls).extracting(c -> c.request().url()).containsExactly(
                    base + "/v1/chat/completions", base + "/v1/embeddings",
                    base + "/collections/reports/points/search", base + "/v2/rerank", base + "/v1/chat/completions");
            assertThat(calls).allSatisfy(c -> {
                assertThat(c.runHint()).isEqualTo(TRACE_ID);
                assertThat(c.pipeline()).isEqualTo("support-assistant");
                assertThat(c.response().status()).isEqualTo(200);
            });
            for (int i = 1; i < calls.size(); i++) {
                assertThat(calls.get(i).startedAt()).isAfterOrEqualTo(calls.get(i - 1).endedAt());
            }
            assertThat(calls.get(0).response().body()).isEqualTo(Json.MAPPER.readTree(Wire.rewriteResponse()));
            assertThat(calls.get(1).request().body().path("input").asText()).isEqualTo(Wire.REWRITE);
            assertThat(calls.get(3).request().body()).isEqualTo(Json.MAPPER.readTree(Wire.cohereRerankRequest()));
            assertThat(calls.get(4).response().body().textValue()).isEqualTo(String.join("", Wire.generateStream()));
            assertThat(FakeSecrets.foundIn(Files.readString(CAPTURED, StandardCharsets.UTF_8))).isEmpty();
        }
    }
}
