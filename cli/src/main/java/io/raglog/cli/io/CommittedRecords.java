package io.raglog.cli.io;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Every committed record of a topic, from its beginning to its end, as a {@code read_committed} consumer downstream of
 * a finished job sees them once the job's last commits have landed.
 *
 * <p>Why wait: a job that writes exactly once commits its last transactions as it finishes, and a commit returns to
 * its writer before the broker has written the transaction's markers. Until it has, the committed end of a partition
 * (its last stable offset) stops short of that transaction, and a read right after the job misses its records. So the
 * read first waits, for at most {@link #SETTLE}, until no transaction is left open: the committed end has caught up
 * with the log's end. A topic written without transactions has the two equal at once. A transaction still open after
 * that (a writer that died mid-transaction, which the broker aborts only at its timeout) is left out, as a consumer
 * would leave it out. Only for topics whose writers have finished: a running job always has a transaction open, and
 * every read would wait out the whole {@link #SETTLE}.
 */
public final class CommittedRecords {

    static final Duration SETTLE = Duration.ofSeconds(30);

    private CommittedRecords() {}

    /**
     * @param consumer the consumer's properties (servers, deserializers of bytes, a group of its own); the isolation
     *     level is set here
     */
    public static List<byte[]> read(Properties consumer, String topic) {
        return read(consumer, topic, true);
    }

    /**
     * What is committed now, without waiting for commits in progress: for a running job's topics, where a transaction
     * is always open and {@link #read} would wait out its limit every time.
     */
    public static List<byte[]> readNow(Properties consumer, String topic) {
        return read(consumer, topic, false);
    }

    private static List<byte[]> read(Properties consumer, String topic, boolean settle) {
        Properties committed = new Properties();
        committed.putAll(consumer);
        committed.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<byte[]> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> reader = new KafkaConsumer<>(committed)) {
            List<TopicPartition> partitions = reader.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            reader.assign(partitions);
            reader.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = settle ? settledEnd(reader, consumer, partitions)
                    : reader.endOffsets(partitions);
            while (partitions.stream().anyMatch(p -> reader.position(p) < end.get(p))) {
                for (ConsumerRecord<byte[], byte[]> r : reader.poll(Duration.ofMillis(200))) {
                    values.add(r.value());
                }
            }
        }
        return values;
    }

    /**
     * The committed end once it has caught up with the log's end, or as far as it got in {@link #SETTLE}. The log's end
     * is read by a consumer of its own, made only here: a read that does not settle needs none.
     */
    private static Map<TopicPartition, Long> settledEnd(KafkaConsumer<?, ?> committed, Properties consumer,
            List<TopicPartition> partitions) {
        Properties uncommitted = new Properties();
        uncommitted.putAll(consumer);
        uncommitted.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
        try (KafkaConsumer<byte[], byte[]> logEnd = new KafkaConsumer<>(uncommitted)) {
            long deadline = System.nanoTime() + SETTLE.toNanos();
            Map<TopicPartition, Long> end = committed.endOffsets(partitions);
            while (!end.equals(logEnd.endOffsets(partitions)) && System.nanoTime() < deadline) {
                try {
                    Thread.sleep(100); // between two looks at the ends; the loop checks the condition
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while waiting for commits to land", e);
                }
                end = committed.endOffsets(partitions);
            }
            return end;
        }
    }
}
