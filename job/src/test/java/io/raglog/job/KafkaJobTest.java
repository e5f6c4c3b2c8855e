package io.raglog.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.job.io.EmbeddedKafka;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.Json;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The job between real Kafka topics on a real KRaft broker, on a Flink MiniCluster with RocksDB and checkpoints. */
class KafkaJobTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    private static EmbeddedKafka kafka;

    @BeforeAll
    static void startBroker() throws Exception {
        kafka = EmbeddedKafka.start(Path.of(System.getProperty("java.io.tmpdir"), "kafka-" + System.nanoTime()));
    }

    @AfterAll
    static void stopBroker() throws Exception {
        kafka.close();
    }

    static StreamExecutionEnvironment environment(Path checkpoints) {
        Configuration conf = new Configuration();
        conf.setString("state.backend.type", "rocksdb");
        conf.setString("execution.checkpointing.incremental", "true");
        conf.setString("execution.checkpointing.interval", "500 ms");
        conf.setString("execution.checkpointing.dir", checkpoints.toUri().toString());
        conf.setString("restart-strategy.type", "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        return env;
    }

    private static Topics freshTopics(String name) throws Exception {
        Topics topics = Topics.prefixed(name);
        kafka.createTopics(topics.all(), 2);
        return topics;
    }

    private static void send(String topic, List<byte[]> values) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            values.forEach(v -> producer.send(new ProducerRecord<>(topic, v)));
        }
    }

    @Test
    void shouldSendEveryMalformedMessageToTheDeadLetterTopicWithAReason() throws Exception {
        Topics topics = freshTopics("malformed");
        List<byte[]> bad = List.of(
                "not json at all".getBytes(StandardCharsets.UTF_8),
                "{\"schema\":\"raglog.call/v1\",\"event_id\":".getBytes(StandardCharsets.UTF_8),
                "{}".getBytes(StandardCharsets.UTF_8),
                "[1,2,3]".getBytes(StandardCharsets.UTF_8),
                new byte[] {'{', (byte) 0xC3, (byte) 0x28, '}'},
                ("{\"schema\":\"raglog.call/v2\",\"event_id\":\"e\",\"pipeline\":\"p\",\"started_at\":\"2026-01-01T00:00:00Z\","
                        + "\"ended_at\":\"2026-01-01T00:00:01Z\",\"request\":{\"method\":\"POST\",\"url\":\"http://x/v1/embeddings\"},"
                        + "\"response\":{\"status\":200},\"source\":\"proxy\"}").getBytes(StandardCharsets.UTF_8),
                ("{\"schema\":\"raglog.call/v1\",\"event_id\":\"e\",\"pipeline\":\"p\",\"started_at\":\"yesterday\","
                        + "\"ended_at\":\"2026-01-01T00:00:01Z\",\"request\":{\"method\":\"POST\",\"url\":\"http://x\"},"
                        + "\"response\":{\"status\":\"200\"},\"source\":\"proxy\"}").getBytes(StandardCharsets.UTF_8));
        send(topics.calls(), bad);
        send(topics.otlp(), List.of(new byte[] {1, 2, 3, 4}));

        StreamExecutionEnvironment env = environment(Path.of(System.getProperty("java.io.tmpdir"), "cp-malformed"));
        KafkaJob.wire(env, new KafkaJob.Connection(kafka.bootstrapServers(), topics, "malformed-test", true,
                DeliveryGuarantee.AT_LEAST_ONCE, new Properties()), JobSettings.defaults());
        env.execute("malformed");

        List<DeadLetter> letters = Demo.readAll(kafka.bootstrapServers(), topics.deadLetters()).stream()
                .map(v -> Json.read(v, DeadLetter.class)).toList();
        assertThat(letters).hasSize(bad.size() + 1);
        assertThat(letters).allSatisfy(l -> {
            assertThat(l.reason()).isNotBlank();
            assertThat(l.partition()).isBetween(0, 1);
            assertThat(l.offset()).isGreaterThanOrEqualTo(0);
        });
        assertThat(letters).extracting(DeadLetter::reason).anySatisfy(r -> assertThat(r).startsWith("not JSON"))
                .anySatisfy(r -> assertThat(r).isEqualTo("not valid UTF-8"))
                .anySatisfy(r -> assertThat(r).contains("expected 'raglog.call/v1'"))
                .anySatisfy(r -> assertThat(r).contains("started_at is not an RFC 3339 date-time")
                        .contains("response.status must be an integer"));
        assertThat(letters).filteredOn(l -> l.payload() == null).singleElement()
                .satisfies(l -> assertThat(java.util.Base64.getDecoder().decode(l.payloadBase64()))
                        .containsExactly('{', (byte) 0xC3, (byte) 0x28, '}'));
        assertThat(Demo.readAll(kafka.bootstrapServers(), topics.runs())).isEmpty();
    }
}
