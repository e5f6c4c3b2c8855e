package io.raglog.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.proxy.metrics.ProxyMetrics;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.Dsl;
import org.asynchttpclient.Response;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kafka stops under a running proxy: clients keep getting their replies, and the lost recordings are counted. */
class KafkaOutageTest {

    @TempDir
    Path dir;

    @Test
    void shouldKeepServingClientsAndCountDroppedRecordingsWhenKafkaStops() throws Exception {
        TestKafka kafka = TestKafka.start(dir.resolve("kafka"));
        try (FakeUpstream upstream = RagRun.upstream();
                AsyncHttpClient ahc = Dsl.asyncHttpClient()) {
            kafka.createTopic("raglog.calls", 2);
            // Short producer timeouts so the lost recordings show up within the test, not after the 30 s default; long
            // enough for the first metadata fetch from a freshly started broker on a loaded machine.
            try (LoggingProxy proxy = LoggingProxy.start(ProxyConfig.builder()
                    .listenOnEphemeralPort()
                    .admin(new InetSocketAddress("127.0.0.1", 0))
                    .route(Route.prefix("/openai", upstream.baseUri().toString()))
                    .route(Route.prefix("/qdrant", upstream.baseUri().toString()))
                    .route(Route.prefix("/cohere", upstream.baseUri().toString()))
                    .sink(new SinkSpec.Kafka(kafka.bootstrapServers(), "raglog.calls", Map.of(
                            "max.block.ms", "3000", "request.timeout.ms", "1000", "delivery.timeout.ms", "4000",
                            "linger.ms", "0", "reconnect.backoff.max.ms", "200")))
                    .maxQueuedCalls(8)
                    .build())) {
                HttpClient jdk = HttpClient.newHttpClient();
                RagRun.send(jdk, proxy.baseUri(), Map.of("x-raglog-run-id", "before-the-outage"));
                Eventually.await("the first run recorded", Duration.ofSeconds(60),
                        () -> proxy.metrics().snapshot().recorded() == 5);

                kafka.close();

                for (int i = 0; i < 6; i++) {
                    RagRun.send(jdk, proxy.baseUri(), Map.of("x-raglog-run-id", "during-the-outage-" + i));
                }
                List<CompletableFuture<Response>> concurrent = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    concurrent.add(ahc.preparePost(proxy.baseUri().resolve("/openai/v1/embeddings").toString())
                            .setHeader("Content-Type", "application/json")
                            .setBody(Wire.embeddingsRequest()).execute().toCompletableFuture());
                }
                for (CompletableFuture<Response> f : concurrent) {
                    Response r = f.get(30, TimeUnit.SECONDS);
                    assertThat(r.getStatusCode()).isEqualTo(200);
                    assertThat(r.getResponseBody()).isEqualTo(Wire.embeddingsResponse());
                }

                int calls = 5 + 6 * 5 + 20;
                Eventually.await("every call recorded or counted as dropped", Duration.ofSeconds(60), () -> {
                    ProxyMetrics.Snapshot s = proxy.metrics().snapshot();
                    return s.recorded() + s.droppedTotal() == calls;
                });
                ProxyMetrics.Snapshot s = proxy.metrics().snapshot();
                assertThat(s.requests()).isEqualTo(calls);
                assertThat(s.upstreamFailures()).isZero();
                assertThat(s.recorded()).isEqualTo(5);
                assertThat(s.droppedTotal()).isEqualTo(calls - 5);
                assertThat(s.lastSinkFailure()).isNotNull();

                HttpResponse<String> metrics = jdk.send(HttpRequest.newBuilder(URI.create(
                        "http://127.0.0.1:" + proxy.adminAddress().getPort() + "/metrics")).build(),
                        HttpResponse.BodyHandlers.ofString());
                long exposed = metrics.body().lines()
                        .filter(l -> l.startsWith("raglog_proxy_dropped_total{"))
                        .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
                assertThat(exposed).isEqualTo(calls - 5);
            }
        } finally {
            kafka.close();
        }
    }
}
