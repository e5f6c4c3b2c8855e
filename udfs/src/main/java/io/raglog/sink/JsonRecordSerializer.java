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
 */
public class JsonRecordSerializer<T> implements KafkaRecordSerializationSchema<T> {

    private static final long serialVersionUID = 1L;

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
                k == null ? null : k.getBytes(StandardCharsets.UTF_8), Json.writeBytes(element));
    }
}
