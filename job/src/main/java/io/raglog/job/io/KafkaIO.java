package io.raglog.job.io;

import io.raglog.ingest.RawMessage;
import io.raglog.ingest.RawMessageDeserializer;
import io.raglog.sink.JsonRecordSerializer;
import java.time.Duration;
import java.util.Properties;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** Kafka sources and sinks of the job, configured the one way raglog needs them. */
public final class KafkaIO {

    /**
     * Kafka brokers cap transactions at 15 minutes by default; the sink's default (1 hour) is refused and the job
     * restarts forever. Checkpoints must complete well inside this.
     */
    public static final Duration TRANSACTION_TIMEOUT = Duration.ofMinutes(10);

    private KafkaIO() {}

    /** Kafka record timestamps, a bounded disorder between partitions' producers, idle partitions not holding back. */
    public static WatermarkStrategy<RawMessage> recordTimeWatermarks(Duration maxOutOfOrder, Duration idleness) {
        return WatermarkStrategy.<RawMessage>forBoundedOutOfOrderness(maxOutOfOrder).withIdleness(idleness);
    }

    /**
     * Event time is the Kafka record timestamp, which the proxy sets to the call's end (the OTel Collector to its
     * export time), and watermarks are generated per partition by the source: one partition read ahead of another
     * cannot make the other's calls late. Calls of one run share a partition (the proxy keys by run hint, else by
     * pipeline), in the order they ended.
     *
     * @param bounded read up to the offsets current at start and finish (demo, tests); otherwise read forever
     */
    public static DataStream<RawMessage> source(StreamExecutionEnvironment env, String bootstrap, String topic,
            String groupId, boolean bounded, WatermarkStrategy<RawMessage> watermarks, Properties extra) {
        var builder = KafkaSource.<RawMessage>builder()
                .setBootstrapServers(bootstrap)
                .setTopics(topic)
                .setGroupId(groupId)
                .setStartingOffsets(OffsetsInitializer.committedOffsets(
                        org.apache.kafka.clients.consumer.OffsetResetStrategy.EARLIEST))
                .setDeserializer(new RawMessageDeserializer())
                .setProperties(extra);
        if (bounded) {
            builder.setBounded(OffsetsInitializer.latest());
        }
        return env.fromSource(builder.build(), watermarks, "kafka " + topic).uid("source-" + topic);
    }

    public static <T> KafkaSink<T> sink(String bootstrap, String topic, JsonRecordSerializer.KeyOf<T> key,
            DeliveryGuarantee guarantee, String transactionalIdPrefix, Properties extra) {
        Properties props = new Properties();
        props.putAll(extra);
        props.setProperty("transaction.timeout.ms", String.valueOf(TRANSACTION_TIMEOUT.toMillis()));
        var builder = KafkaSink.<T>builder()
                .setBootstrapServers(bootstrap)
                .setRecordSerializer(new JsonRecordSerializer<>(topic, key))
                .setDeliveryGuarantee(guarantee)
                .setKafkaProducerConfig(props);
        if (guarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            builder.setTransactionalIdPrefix(transactionalIdPrefix);
        }
        return builder.build();
    }
}
