package io.raglog.bench.e2e;

import io.raglog.ingest.RawMessage;
import io.raglog.ingest.RawMessageDeserializer;
import io.raglog.job.io.KafkaIO;
import java.util.Properties;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.base.source.hybrid.HybridSource;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The throughput ceiling of Flink + Kafka here: Kafka sources like the job's (same topics, same deserializer) copying
 * every message unchanged to one topic with the job's sink settings. Nothing raglog-specific in between.
 *
 * <p>Each source reads its topic {@code rounds} times in a row (a {@link HybridSource} of bounded Kafka sources over
 * the same topic), because the copy is fast: once batched, one pass over the full run's 7,030 messages took 0.2 to
 * 0.5 s, too short a window for a rate (the JIT and the first fetches were most of it).
 */
final class Passthrough {

    private Passthrough() {}

    static void wire(StreamExecutionEnvironment env, String bootstrap, String callsTopic, String otlpTopic,
            String outTopic, String groupId, int rounds) {
        DataStream<RawMessage> calls = read(env, bootstrap, callsTopic, groupId, rounds);
        DataStream<RawMessage> otlp = read(env, bootstrap, otlpTopic, groupId, rounds);
        calls.union(otlp).sinkTo(KafkaSink.<RawMessage>builder()
                        .setBootstrapServers(bootstrap)
                        .setRecordSerializer(new Copy(outTopic))
                        .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                        .setKafkaProducerConfig(KafkaIO.producerConfig(new Properties()))
                        .build())
                .uid("sink-passthrough").name("kafka " + outTopic);
    }

    private static DataStream<RawMessage> read(StreamExecutionEnvironment env, String bootstrap, String topic,
            String groupId, int rounds) {
        if (rounds < 1) {
            throw new IllegalArgumentException("the passthrough reads its input at least once, not " + rounds);
        }
        var sources = HybridSource.builder(onePass(bootstrap, topic, groupId));
        for (int i = 1; i < rounds; i++) {
            sources = sources.addSource(onePass(bootstrap, topic, groupId));
        }
        Source<RawMessage, ?, ?> source = sources.build();
        // a hybrid source does not say what it produces: its parts' deserializer does
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), "kafka " + topic,
                new RawMessageDeserializer().getProducedType()).uid("source-" + topic);
    }

    /** The topic from its start to its end as of when the pass starts: the whole input, which nothing still writes. */
    private static KafkaSource<RawMessage> onePass(String bootstrap, String topic, String groupId) {
        return KafkaSource.<RawMessage>builder()
                .setBootstrapServers(bootstrap)
                .setTopics(topic)
                .setGroupId(groupId)
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setBounded(OffsetsInitializer.latest())
                .setDeserializer(new RawMessageDeserializer())
                .build();
    }

    /** The message's bytes as they were read. */
    static final class Copy implements KafkaRecordSerializationSchema<RawMessage> {
        private static final long serialVersionUID = 1L;
        private final String topic;

        Copy(String topic) {
            this.topic = topic;
        }

        @Override
        public ProducerRecord<byte[], byte[]> serialize(RawMessage m, KafkaSinkContext context, Long timestamp) {
            return new ProducerRecord<>(topic, null, null, null, m.payload());
        }
    }
}
