package io.raglog.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Calls through the proxy land in a real broker's {@code raglog.calls}: keyed so one run's calls share a partition,
 * stamped with the call's end (raglog's watermarks come from record timestamps), with no secret in any byte.
 */
class KafkaRecordingTest {

    @TempDir
    Path dir;

    @Test
    void shouldProduceEachCallKeyedByRunHintAndStampedWithItsEnd() throws Exception {
        try (TestKafka kafka = TestKafka.start(dir.resolve("kafka"));
                FakeUpstream upstream = RagRun.upstream()) {
            kafka.createTopic("raglog.calls", 4);
            try (LoggingProxy proxy = LoggingProxy.start(ProxyConfig.builder()
                    .listenOnEphemeralPort()
                    .route(Route.prefix("/openai", upstream.baseUri().toString()))
                    .route(Route.prefix("/qdrant", upstream.baseUri().toString()))
                    .route(Route.prefix("/cohere", upstream.baseUri().toString()))
                    .defaultPipeline("support-assistant")
                    .sink(SinkSpec.kafka(kafka.bootstrapServers()))
                    .build())) {
                HttpClient client = HttpClient.newHttpClient();
                String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
                RagRun.send(client, proxy.baseUri(), Map.of("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01"));
                RagRun.send(client, proxy.baseUri(), Map.of("x-raglog-run-id", "run-0002"));
                client.send(HttpRequest.newBuilder(proxy.baseUri().resolve("/openai/v1/embeddings"))
                        .header("Authorization", "Bearer " + FakeSecrets.OPENAI_PROJECT)
                        .POST(HttpRequest.BodyPublishers.ofString(Wire.embeddingsRequest())).build(),
                        HttpResponse.BodyHandlers.ofString());

                List<ConsumerRecord<String, byte[]>> records = kafka.consume("raglog.calls", 11, Duration.ofSeconds(30));

                assertThat(records).hasSize(11);
                for (ConsumerRecord<String, byte[]> r : records) {
                    CallEvent call = Json.read(r.value(), CallEvent.class);
                    assertThat(r.key()).isEqualTo(call.hasRunHint() ? call.runHint() : call.pipeline());
                    assertThat(r.timestamp()).as("record timestamp = ended_at, for the job's watermarks")
                            .isEqualTo(call.endedAt().toEpochMilli());
                    assertThat(ContractSchema.violationsOfCallV1(Json.MAPPER.readTree(r.value()))).isEmpty();
                }
                Map<String, List<Integer>> partitionsByKey = records.stream().collect(Collectors.groupingBy(
                        ConsumerRecord::key, Collectors.mapping(ConsumerRecord::partition, Collectors.toList())));
                assertThat(partitionsByKey.keySet()).containsExactlyInAnyOrder(traceId, "run-0002", "support-assistant");
                assertThat(partitionsByKey.get(traceId)).hasSize(5).containsOnly(partitionsByKey.get(traceId).get(0));
                assertThat(partitionsByKey.get("run-0002")).hasSize(5).containsOnly(partitionsByKey.get("run-0002").get(0));

                String everything = records.stream()
                        .map(r -> r.key() + "\n" + new String(r.value(), StandardCharsets.UTF_8))
                        .collect(Collectors.joining("\n"));
                assertThat(FakeSecrets.foundIn(everything)).isEmpty();
                // recorded counts in the producer's acknowledgement callback, which can run after the consumer has
                // already read the records: it is awaited, not read once. Exactly 11 is then checked, so a count
                // that overshot would still fail.
                Eventually.await("the 11 acknowledged calls counted as recorded", Duration.ofSeconds(30),
                        () -> proxy.metrics().snapshot().recorded() >= 11);
                assertThat(proxy.metrics().snapshot().recorded()).isEqualTo(11);
            }
        }
    }
}
