package io.raglog.cli.chaos;

import io.raglog.cli.io.CommittedRecords;
import io.raglog.schemas.Json;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListConsumerGroupOffsetsSpec;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/** What a chaos scenario does with Kafka from the outside: write input, read output as a consumer would, watch progress. */
public final class Kafka {

    /** One record to write; a null partition lets the key decide. */
    public record Record(String topic, Integer partition, String key, Long timestampMillis, byte[] value) {}

    private final String bootstrap;

    public Kafka(String bootstrap) {
        this.bootstrap = bootstrap;
    }

    public String bootstrap() {
        return bootstrap;
    }

    /** Writes the records and waits until every one is acknowledged by the broker; returns where each landed. */
    public List<RecordMetadata> produce(List<Record> records) {
        try (KafkaProducer<String, byte[]> producer = openProducer()) {
            return produce(producer, records);
        }
    }

    /** Writes with a producer the caller keeps open, acknowledged before it returns. */
    public static List<RecordMetadata> produce(KafkaProducer<String, byte[]> producer, List<Record> records) {
        List<Future<RecordMetadata>> sent = new ArrayList<>();
        try {
            for (Record r : records) {
                sent.add(producer.send(new ProducerRecord<>(r.topic(), r.partition(), r.timestampMillis(), r.key(),
                        r.value())));
            }
            producer.flush();
            List<RecordMetadata> landed = new ArrayList<>(sent.size());
            for (Future<RecordMetadata> f : sent) {
                landed.add(f.get());
            }
            return landed;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while producing", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("producing to Kafka failed: " + e.getCause().getMessage(), e.getCause());
        }
    }

    /** A producer as the proxy would configure one: every write acknowledged by the broker, retried until it is. */
    public KafkaProducer<String, byte[]> openProducer() {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        // room for the oversized messages the bad-input scenario sends on purpose
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 4 * 1024 * 1024);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "raglog-chaos");
        // Bursts of near-1 MB spoiled messages on a loaded machine can take the broker longer than the default 30 s
        // to append: waiting longer avoids resends.
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 120_000);
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 300_000);
        // Not idempotent: after the embedded broker is restarted (the outage scenario), it hands out producer ids
        // from 0 again, so two producers writing one topic in turn can share an id, and the second one's first batch
        // is refused as out of sequence until it expires. One request in flight keeps the order without it, and the
        // long request timeout above makes a resend (a possible duplicate input) all but impossible.
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
        props.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        return new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
    }

    /**
     * Every committed value of a topic, from the beginning to its current end, as a downstream consumer sees it now
     * (a running job's topics; {@link #readSettled} for a stopped job's).
     */
    public List<byte[]> readCommitted(String topic) {
        return CommittedRecords.readNow(consumerProperties(), topic);
    }

    public <T> List<T> read(String topic, Class<T> type) {
        return readCommitted(topic).stream().map(v -> Json.read(v, type)).toList();
    }

    /**
     * What a topic holds once the job that wrote it has finished or been cancelled, after its last commits (or a
     * cancelled writer's aborts) have landed ({@link CommittedRecords}): what an audit reads. Not for a running job's
     * topics, where a transaction is always open.
     */
    public <T> List<T> readSettled(String topic, Class<T> type) {
        return CommittedRecords.read(consumerProperties(), topic).stream().map(v -> Json.read(v, type)).toList();
    }

    /**
     * Records written to a topic so far, committed or not: how far a transactional writer has got before its next
     * checkpoint commits it. Includes transaction markers, so it is a progress gauge, not a count of results.
     */
    public long written(String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties())) {
            List<TopicPartition> partitions = partitions(consumer, topic);
            long end = consumer.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
            long begin = consumer.beginningOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
            return end - begin;
        }
    }

    /**
     * How far the committed part of a topic reaches (its last stable offsets): it moves when a transactional writer
     * commits, on a checkpoint. Counts transaction markers and aborted records too, so it is a gauge, not a count.
     */
    public long committedReach(String topic) {
        Properties props = consumerProperties();
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            List<TopicPartition> partitions = partitions(consumer, topic);
            long end = consumer.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
            long begin = consumer.beginningOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
            return end - begin;
        }
    }

    /** Whether a consumer group has committed offsets at the end of every partition of these topics. */
    public boolean caughtUp(String groupId, Collection<String> topics) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(props);
                KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties())) {
            Map<TopicPartition, OffsetAndMetadata> committed = admin
                    .listConsumerGroupOffsets(Map.of(groupId, new ListConsumerGroupOffsetsSpec()))
                    .partitionsToOffsetAndMetadata(groupId).get();
            for (String topic : topics) {
                for (Map.Entry<TopicPartition, Long> end : consumer.endOffsets(partitions(consumer, topic)).entrySet()) {
                    OffsetAndMetadata at = committed.get(end.getKey());
                    if (end.getValue() > 0 && (at == null || at.offset() < end.getValue())) {
                        return false;
                    }
                }
            }
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException e) {
            return false;
        }
    }

    public void createTopics(Collection<String> topics, int partitions) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(props)) {
            admin.createTopics(topics.stream().map(t -> new NewTopic(t, partitions, (short) 1)).toList()).all().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating topics", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot create topics " + topics + ": " + e.getCause(), e.getCause());
        }
    }

    public int partitionCount(String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(consumerProperties())) {
            return consumer.partitionsFor(topic).size();
        }
    }

    private static List<TopicPartition> partitions(KafkaConsumer<?, ?> consumer, String topic) {
        return consumer.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition())).toList();
    }

    private Properties consumerProperties() {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "raglog-chaos-reader-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, 8 * 1024 * 1024);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return props;
    }
}
