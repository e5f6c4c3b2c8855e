package io.raglog.job.io;

import io.raglog.ingest.RawMessage;
import io.raglog.ingest.RawMessageDeserializer;
import io.raglog.sink.JsonRecordSerializer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

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

    /**
     * A control topic (the threshold overrides): compacted, so it is read from its start whenever the job starts
     * without state (a restore resumes from the checkpointed offsets), committed records only (the publisher writes
     * in transactions), and it takes no part in event time (below). It is optional: named as a pattern, a topic not
     * created yet is no error (a listed topic fails the job's start) and is picked up by partition discovery once it
     * exists.
     */
    public static DataStream<RawMessage> controlSource(StreamExecutionEnvironment env, String bootstrap, String topic,
            String groupId, boolean bounded, Properties extra) {
        Properties properties = new Properties();
        properties.putAll(extra);
        properties.setProperty("isolation.level", "read_committed");
        var builder = KafkaSource.<RawMessage>builder()
                .setBootstrapServers(bootstrap)
                .setTopicPattern(Pattern.compile(Pattern.quote(topic)))
                .setGroupId(groupId)
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setDeserializer(new RawMessageDeserializer())
                .setProperties(properties);
        if (bounded) {
            builder.setBounded(OffsetsInitializer.latest());
        }
        // One reader: every subtask of the scoring step gets every record anyway (broadcast). No event time: the
        // operator it feeds takes its time from its main input alone (MainInputTimeOperator).
        return env.fromSource(builder.build(), WatermarkStrategy.noWatermarks(), "kafka " + topic)
                .uid("source-" + topic).setParallelism(1);
    }

    /**
     * Creates {@code topic} compacted, one partition, when the cluster lacks it: a compacted topic keeps each key's
     * latest record, and one partition is plenty for a record per pipeline.
     *
     * @throws IllegalStateException when the cluster cannot be asked or refuses (a cluster that forbids creating
     *     topics has them made by its operators)
     */
    public static void createCompactedTopicIfMissing(String bootstrap, String topic, Properties extra) {
        Properties props = new Properties();
        props.putAll(extra);
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(props)) {
            NewTopic compacted = new NewTopic(topic, Optional.of(1), Optional.empty())
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
            admin.createTopics(List.of(compacted)).all().get(15, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("could not create topic " + topic + ": " + e.getCause(), e);
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("could not create topic " + topic + ": no answer in 15 s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topic " + topic, e);
        }
    }

    /**
     * How long a sink's producer waits to fill a batch, and how big a batch may grow. A run is some 16 KB of JSON: at
     * Kafka's default batch (16 KB, 5 ms) nearly every run went out as a produce request of its own, and each verdict
     * as another. Measured on the no-vector benchmark job (3,000 runs, warm jobs alternating in one JVM): the Kafka
     * clients' CPU per run fell from 0.19-0.24 to 0.08-0.13 ms and the in-process broker's from 0.30-0.49 to
     * 0.12-0.22 ms. The wait is at most 20 ms on a verdict whose checks take an LLM round trip.
     */
    static final String LINGER_MS = "20";
    static final String BATCH_BYTES = String.valueOf(256 * 1024);

    /**
     * The producer configuration of every raglog sink: raglog's batching, then the deployment's own client
     * properties (which win: a cluster with a smaller {@code message.max.bytes} sets a smaller batch), then the
     * transaction timeout the job's checkpoints rely on.
     */
    public static Properties producerConfig(Properties extra) {
        Properties props = new Properties();
        props.setProperty("linger.ms", LINGER_MS);
        props.setProperty("batch.size", BATCH_BYTES);
        props.putAll(extra);
        props.setProperty("transaction.timeout.ms", String.valueOf(TRANSACTION_TIMEOUT.toMillis()));
        return props;
    }

    public static <T> KafkaSink<T> sink(String bootstrap, String topic, JsonRecordSerializer.KeyOf<T> key,
            DeliveryGuarantee guarantee, String transactionalIdPrefix, Properties extra) {
        return sink(bootstrap, new JsonRecordSerializer<>(topic, key), guarantee, transactionalIdPrefix, extra);
    }

    /** A sink whose records are not the contracts' JSON (the OTLP evaluation events). */
    public static <T> KafkaSink<T> sink(String bootstrap, KafkaRecordSerializationSchema<T> records,
            DeliveryGuarantee guarantee, String transactionalIdPrefix, Properties extra) {
        var builder = KafkaSink.<T>builder()
                .setBootstrapServers(bootstrap)
                .setRecordSerializer(records)
                .setDeliveryGuarantee(guarantee)
                .setKafkaProducerConfig(producerConfig(extra));
        if (guarantee == DeliveryGuarantee.EXACTLY_ONCE) {
            builder.setTransactionalIdPrefix(transactionalIdPrefix);
        }
        return builder.build();
    }
}
