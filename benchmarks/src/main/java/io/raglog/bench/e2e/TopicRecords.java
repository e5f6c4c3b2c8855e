package io.raglog.bench.e2e;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A topic's records as the benchmark reads them: the value and the record timestamp, which for the job's outputs is
 * the wall clock when the sink's producer created the record (the job leaves the timestamp to the producer), or, in
 * topics created with {@code message.timestamp.type=LogAppendTime} (the latency run's), when the broker appended it.
 */
public final class TopicRecords {

    public record Timed(long timestampMs, byte[] value) {}

    private TopicRecords() {}

    public static List<Timed> readAll(String bootstrap, String topic) {
        List<Timed> out = new ArrayList<>();
        forEach(bootstrap, topic, r -> out.add(new Timed(r.timestamp(), r.value())));
        return out;
    }

    /** The records' timestamps alone: a passthrough's output is hundreds of MB that need not stay in memory. */
    public static List<Long> timestamps(String bootstrap, String topic) {
        List<Long> out = new ArrayList<>();
        forEach(bootstrap, topic, r -> out.add(r.timestamp()));
        return out;
    }

    /** Every record in the topic now, partition by partition in offset order. */
    static void forEach(String bootstrap, String topic, Consumer<ConsumerRecord<byte[], byte[]>> each) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrap)) {
            List<TopicPartition> partitions = partitions(consumer, topic);
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            var end = consumer.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                consumer.poll(Duration.ofMillis(200)).forEach(each);
            }
        }
    }

    /** Records in the topic now, from its offsets (nothing here writes transactionally). */
    public static long count(String bootstrap, String topic) {
        try (KafkaConsumer<byte[], byte[]> consumer = consumer(bootstrap)) {
            List<TopicPartition> partitions = partitions(consumer, topic);
            long end = consumer.endOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
            long begin = consumer.beginningOffsets(partitions).values().stream().mapToLong(Long::longValue).sum();
            return end - begin;
        }
    }

    /** True when the group has committed the end offset of every partition of the topic. */
    public static boolean committedToEnd(String bootstrap, String topic, String groupId) {
        Properties props = props(bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(props)) {
            List<TopicPartition> partitions = partitions(consumer, topic);
            var end = consumer.endOffsets(partitions);
            var committed = consumer.committed(new java.util.HashSet<>(partitions));
            return partitions.stream().allMatch(p -> end.get(p) == 0
                    || committed.get(p) != null && committed.get(p).offset() >= end.get(p));
        }
    }

    /** A stretch of wall-clock time (ms) and the records whose timestamps fall in it. */
    public record Window(long fromMs, long toMs, int records) {

        public double perSecond() {
            return toMs <= fromMs ? Double.NaN : records / ((toMs - fromMs) / 1000.0);
        }
    }

    /**
     * The middle of an output: between the arrival of its 10th and 90th percentile record, so that job start-up
     * (model loading, the first fetch) and the drain at the end do not count. Null below 20 records.
     */
    public static Window steadyWindow(List<Long> timestampsMs) {
        if (timestampsMs.size() < 20) {
            return null;
        }
        List<Long> sorted = new ArrayList<>(timestampsMs);
        sorted.sort(null);
        int lo = sorted.size() / 10;
        int hi = sorted.size() * 9 / 10;
        return new Window(sorted.get(lo), sorted.get(hi), hi - lo);
    }

    /** Records per second of the {@link #steadyWindow middle} of an output; NaN below 20 records. */
    public static double steadyRate(List<Long> timestampsMs) {
        Window w = steadyWindow(timestampsMs);
        return w == null ? Double.NaN : w.perSecond();
    }

    private static List<TopicPartition> partitions(KafkaConsumer<byte[], byte[]> consumer, String topic) {
        return consumer.partitionsFor(topic).stream().map(p -> new TopicPartition(topic, p.partition())).toList();
    }

    private static KafkaConsumer<byte[], byte[]> consumer(String bootstrap) {
        Properties props = props(bootstrap);
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "raglog-bench-reader-" + UUID.randomUUID());
        return new KafkaConsumer<>(props);
    }

    private static Properties props(String bootstrap) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 5000);
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return props;
    }
}
