package io.raglog.sink;

import io.raglog.schemas.Json;
import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes a contract record as its JSON to one topic, keyed so that all records about one run (or one pipeline)
 * share a partition and stay in order.
 *
 * <p>A record written to two topics from one task (a queued verdict goes to the verdicts and to the faults topic: the
 * sinks are chained to the scoring task and get the same object, {@code JacksonSerializer.copy} keeps it) is written
 * as JSON once: each thread remembers the last record it wrote and its bytes, and the same object, when it is a Java
 * record (immutable), gets the same bytes again. Kafka's producer only reads a value's array. The verdicts' JSON,
 * written twice for every queued run, was a good part of what the scoring thread allocated (JFR, issue #27).
 */
public class JsonRecordSerializer<T> implements KafkaRecordSerializationSchema<T> {

    private static final long serialVersionUID = 1L;

    /** Per thread, the last record written and its JSON. */
    private static final ThreadLocal<LastWritten> LAST_WRITTEN = ThreadLocal.withInitial(LastWritten::new);

    /** A serializable key function. */
    public interface KeyOf<T> extends Function<T, String>, java.io.Serializable {}

    private final String topic;
    private final KeyOf<T> key;

    public JsonRecordSerializer(String topic, KeyOf<T> key) {
        this.topic = topic;
        this.key = key;
    }

    @Override
    public void open(SerializationSchema.InitializationContext context, KafkaSinkContext sinkContext) {}

    @Override
    public ProducerRecord<byte[], byte[]> serialize(T element, KafkaSinkContext context, Long timestamp) {
        String k = key == null ? null : key.apply(element);
        // Stamped when written, not with the event time: a replay of last month's calls would otherwise be deleted by
        // the topic's time-based retention as soon as it lands. The event time is inside the record.
        return new ProducerRecord<>(topic, null, null,
                k == null ? null : k.getBytes(StandardCharsets.UTF_8), json(element));
    }

    /** The record's JSON: the bytes written last when it is the record written last, else written anew. */
    static byte[] json(Object element) {
        if (!(element instanceof Record)) {
            return Json.writeBytes(element);
        }
        LastWritten last = LAST_WRITTEN.get();
        if (last.element != element) {
            byte[] json = Json.writeBytes(element); // remembered only once written: a failed write leaves the last
            last.element = element;
            last.json = json;
        }
        return last.json;
    }

    private static final class LastWritten {
        Object element;
        byte[] json;
    }
}
