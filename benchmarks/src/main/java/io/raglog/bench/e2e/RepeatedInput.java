package io.raglog.bench.e2e;

import io.raglog.cli.io.EmbeddedKafka;
import io.raglog.job.Topics;
import io.raglog.job.io.KafkaIO;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The shared input, several times over, for the passthrough. Batched, the passthrough copies one pass of the full
 * run's 7,030 messages in 0.2 to 1 s, too short a window for a rate (the JIT and the first fetches are most of it).
 * Reading the same topic again in one job (a hybrid source of one bounded source per pass) left gaps of some 0.4 s at
 * every switch, half of a 7 s window. So the input's records are copied, pass after pass, into topics of their own,
 * each to the partition it was in, with its key and timestamp; the passthrough reads those with the job's sources.
 */
final class RepeatedInput {

    private RepeatedInput() {}

    /** @return topics holding each input record {@code rounds} times: every record once, then again, and so on */
    static Topics of(EmbeddedKafka kafka, Topics input, int rounds) throws Exception {
        Topics repeated = Topics.prefixed("passthrough-input");
        kafka.createTopics(List.of(repeated.calls(), repeated.otlp()), 2);
        Properties props = KafkaIO.producerConfig(new Properties());
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        AtomicReference<Exception> failed = new AtomicReference<>();
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(props)) {
            copy(kafka, input.calls(), repeated.calls(), rounds, producer, failed);
            copy(kafka, input.otlp(), repeated.otlp(), rounds, producer, failed);
            producer.flush();
        }
        if (failed.get() != null) {
            throw new IllegalStateException("copying the input for the passthrough failed", failed.get());
        }
        return repeated;
    }

    private static void copy(EmbeddedKafka kafka, String from, String to, int rounds,
            KafkaProducer<byte[], byte[]> producer, AtomicReference<Exception> failed) {
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        TopicRecords.forEach(kafka.bootstrapServers(), from, records::add);
        for (int round = 0; round < rounds; round++) {
            for (ConsumerRecord<byte[], byte[]> r : records) {
                producer.send(new ProducerRecord<>(to, r.partition(), r.timestamp(), r.key(), r.value()),
                        (metadata, e) -> {
                            if (e != null) {
                                failed.compareAndSet(null, e);
                            }
                        });
            }
        }
    }
}
