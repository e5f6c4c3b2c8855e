package io.raglog.cli.io;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.job.io.KafkaIO;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.connector.kafka.sink.internal.FlinkKafkaInternalProducer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What docs/reliability.md says of the KafkaCommitter's "already fenced … signals data loss" ERROR after a failover,
 * against a real broker (transactions version 2, as Kafka 4 formats new clusters): the committer re-commits a
 * restored transaction from the producer id and epoch its checkpoint holds, the way flink-connector-kafka does. When
 * the commit had gone through before the failure, the broker has bumped the epoch and refuses the re-commit as
 * fenced, yet the records are committed, once. When this test fails after a connector or client upgrade, the
 * message's cause has changed: update the page.
 */
class RecommitAfterFailoverTest {

    @TempDir
    static Path dir;
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void start() throws Exception {
        kafka = EmbeddedKafka.start(dir.resolve("kafka"));
        kafka.createTopics(List.of("out"), 1);
    }

    @AfterAll
    static void stop() throws Exception {
        kafka.close();
    }

    @Test
    void shouldRefuseAsFencedTheReCommitOfATransactionCommittedBeforeTheFailureAndLoseNothing() throws Exception {
        Checkpointed txn = writeAndCheckpoint("raglog-faults-1-62", "committed-before-the-failure");
        txn.writer.commitTransaction(); // the commit that went through before the task manager was lost

        try (FlinkKafkaInternalProducer<byte[], byte[]> recovered = new FlinkKafkaInternalProducer<>(props(), txn.id)) {
            recovered.resumeTransaction(txn.producerId, txn.epoch);
            assertThatThrownBy(recovered::commitTransaction).isInstanceOf(ProducerFencedException.class);

            TransactionDescription state = describeOnceComplete(txn.id);
            assertThat(state.state()).isEqualTo(TransactionState.COMPLETE_COMMIT);
            assertThat(state.producerEpoch()).as("version 2 bumps the epoch at the commit").isGreaterThan(txn.epoch);
            assertThat(committed()).containsOnlyOnce("committed-before-the-failure");
        } finally {
            txn.writer.close(Duration.ZERO);
        }
    }

    @Test
    void shouldCommitOnRecoveryATransactionTheFailureInterrupted() throws Exception {
        Checkpointed txn = writeAndCheckpoint("raglog-faults-0-62", "interrupted-by-the-failure");

        try (FlinkKafkaInternalProducer<byte[], byte[]> recovered = new FlinkKafkaInternalProducer<>(props(), txn.id)) {
            recovered.resumeTransaction(txn.producerId, txn.epoch);
            recovered.commitTransaction();

            // what must hold is that the records are committed, once. The coordinator's state then reads
            // CompleteCommit, or now and then Empty (already a producer epoch past the one resumed): 3 of 60 resumed
            // commits in a row read Empty, every one with its record committed, and still Empty 300 ms later
            // (2026-12-06); CI had read it twice in seven runs
            assertThat(describeOnceComplete(txn.id).state()).isIn(TransactionState.COMPLETE_COMMIT,
                    TransactionState.EMPTY);
            assertThat(committed()).containsOnlyOnce("interrupted-by-the-failure");
        } finally {
            txn.writer.close(Duration.ZERO);
        }
    }

    /**
     * A transaction written and flushed, with what a checkpoint keeps of it; not yet committed. The writer stands for
     * the lost task manager and stays silent until the checks are done: closing a producer whose transaction is still
     * open makes its I/O thread send an abort ("Aborting incomplete transaction due to shutdown") unless the forced
     * close wins the race, and a lost process sends nothing. Closed before the checks, that abort sometimes reached the
     * coordinator after the recovered commit (CI read Empty instead of CompleteCommit; a close that waits, so that the
     * abort always goes out, reads CompleteAbort every time).
     */
    private record Checkpointed(String id, FlinkKafkaInternalProducer<byte[], byte[]> writer, long producerId,
            short epoch) {}

    private static Checkpointed writeAndCheckpoint(String id, String value) {
        FlinkKafkaInternalProducer<byte[], byte[]> writer = new FlinkKafkaInternalProducer<>(props(), id);
        writer.initTransactions();
        writer.beginTransaction();
        writer.send(new ProducerRecord<>("out", value.getBytes(java.nio.charset.StandardCharsets.UTF_8)));
        writer.flush();
        return new Checkpointed(id, writer, writer.getProducerId(), writer.getEpoch());
    }

    private static Properties props() {
        Properties p = KafkaIO.producerConfig(new Properties());
        p.setProperty("bootstrap.servers", kafka.bootstrapServers());
        p.setProperty("key.serializer", ByteArraySerializer.class.getName());
        p.setProperty("value.serializer", ByteArraySerializer.class.getName());
        return p;
    }

    /**
     * The transaction's description once the coordinator has finished its commit. commitTransaction() returns when
     * the coordinator has logged PrepareCommit; it writes the markers and CompleteCommit after, so a describe right
     * away can still see PrepareCommit. Any other state, or PrepareCommit past the limit, is returned as it is for the
     * assertion to report.
     */
    private static TransactionDescription describeOnceComplete(String id) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        try (Admin admin = kafka.admin()) {
            while (true) {
                TransactionDescription description = admin.describeTransactions(List.of(id)).description(id).get();
                if (description.state() != TransactionState.PREPARE_COMMIT || System.nanoTime() > deadline) {
                    return description;
                }
                Thread.sleep(50); // between polls, not to wait for the state: the loop checks it
            }
        }
    }

    /**
     * Everything committed to the topic so far, as a read_committed consumer sees it. The partitions are assigned, not
     * subscribed to: a consumer group would make the broker create __consumer_offsets first, which on a fresh broker
     * can take longer than any fixed read window. The read ends when the position reaches the end offsets (for
     * read_committed, the last stable offset, past the commit markers), so nothing committed is left unread however
     * slow the broker is; the limit only stops a broken read from hanging the build.
     */
    private static List<String> committed() {
        Properties c = new Properties();
        c.setProperty("bootstrap.servers", kafka.bootstrapServers());
        c.setProperty("isolation.level", "read_committed");
        c.setProperty("key.deserializer", StringDeserializer.class.getName());
        c.setProperty("value.deserializer", StringDeserializer.class.getName());
        List<String> out = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(c)) {
            List<TopicPartition> partitions = consumer.partitionsFor("out").stream()
                    .map(p -> new TopicPartition(p.topic(), p.partition()))
                    .toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (!partitions.stream().allMatch(p -> consumer.position(p) >= end.get(p))) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("read of topic out did not reach its end offsets " + end + " in 60 s");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(r -> out.add(r.value()));
            }
        }
        return out;
    }
}
