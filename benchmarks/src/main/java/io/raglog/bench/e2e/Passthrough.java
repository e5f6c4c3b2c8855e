package io.raglog.bench.e2e;

import io.raglog.ingest.RawMessage;
import io.raglog.job.io.KafkaIO;
import java.util.Properties;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The throughput ceiling of Flink + Kafka here: the job's own sources (same deserializer) copying every message
 * unchanged to one topic with the job's sink settings. Nothing raglog-specific in between. It reads
 * {@link RepeatedInput}'s topics: the job's input, several times over.
 */
final class Passthrough {

    private Passthrough() {}

    static void wire(StreamExecutionEnvironment env, String bootstrap, String callsTopic, String otlpTopic,
            String outTopic, String groupId) {
        var calls = KafkaIO.source(env, bootstrap, callsTopic, groupId, true, WatermarkStrategy.noWatermarks(),
                new Properties());
        var otlp = KafkaIO.source(env, bootstrap, otlpTopic, groupId, true, WatermarkStrategy.noWatermarks(),
                new Properties());
        calls.union(otlp).sinkTo(KafkaSink.<RawMessage>builder()
                        .setBootstrapServers(bootstrap)
                        .setRecordSerializer(new Copy(outTopic))
                        .setDeliveryGuarantee(DeliveryGuarantee.AT_LEAST_ONCE)
                        .setKafkaProducerConfig(KafkaIO.producerConfig(new Properties()))
                        .build())
                .uid("sink-passthrough").name("kafka " + outTopic);
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
