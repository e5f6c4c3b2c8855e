package io.raglog.cli;

import io.raglog.job.io.KafkaIO;
import io.raglog.schemas.Json;
import io.raglog.schemas.PipelineThresholds;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The compacted topic of per-pipeline threshold overrides, as {@code raglog thresholds --publish} uses it: which
 * version a pipeline is at, and the next one written in a transaction, keyed by pipeline so compaction keeps each
 * pipeline's latest.
 */
final class ThresholdsTopic {

    /** How long reading the topic to its end may take before publishing gives up. */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

    private final String bootstrap;
    private final String topic;

    ThresholdsTopic(String bootstrap, String topic) {
        this.bootstrap = bootstrap;
        this.topic = topic;
    }

    /** Creates the topic, compacted, when the broker lacks it (as the job does when it starts). */
    void ensureCompacted() {
        KafkaIO.createCompactedTopicIfMissing(bootstrap, topic, new Properties());
    }

    /** The highest committed version of {@code pipeline}'s overrides, 0 when it has none. */
    long latestVersion(String pipeline) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        long latest = 0;
        try (KafkaConsumer<String, byte[]> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, READ_TIMEOUT).stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, READ_TIMEOUT);
            long deadline = System.nanoTime() + READ_TIMEOUT.toNanos();
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end within " + READ_TIMEOUT);
                }
                for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    if (pipeline.equals(record.key()) && record.value() != null) {
                        latest = Math.max(latest, versionOf(record.value()));
                    }
                }
            }
        }
        return latest;
    }

    /** A record the job would dead-letter counts for nothing. */
    private static long versionOf(byte[] value) {
        try {
            return Json.read(value, PipelineThresholds.class).version();
        } catch (RuntimeException unreadable) {
            return 0;
        }
    }

    /**
     * Writes the override, committed before this returns. The transactional id is the pipeline's: a second publisher
     * of the same pipeline fences the first instead of both writing.
     */
    RecordMetadata publish(PipelineThresholds override) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "raglog-thresholds-" + override.pipeline());
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "15000");
        try (KafkaProducer<String, byte[]> producer =
                new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            try {
                RecordMetadata sent = producer.send(new ProducerRecord<>(topic, override.pipeline(),
                        Json.writeBytes(override))).get();
                producer.commitTransaction();
                return sent;
            } catch (ExecutionException | KafkaException e) {
                producer.abortTransaction();
                throw e;
            }
        }
    }
}
