package io.raglog.sink;

import io.raglog.otel.EvaluationEvents;
import io.raglog.otel.EvaluationEventsWriter;
import io.raglog.schemas.Verdict;
import java.nio.charset.StandardCharsets;
import org.apache.flink.api.common.serialization.SerializationSchema;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes a verdict as its OpenTelemetry evaluation events ({@link EvaluationEvents}): the value is a serialized
 * {@code ExportLogsServiceRequest}, what an OTel Collector's Kafka receiver reads with encoding {@code otlp_proto};
 * the key is the run id, so a run's records share a partition. The bytes are {@link EvaluationEventsWriter}'s,
 * written straight from the verdict: the same as the request message's, without building it (its builders and
 * messages were most of the ~9.3 KB a verdict this record cost, issue #27).
 */
public class EvaluationRecordSerializer implements KafkaRecordSerializationSchema<Verdict> {

    private static final long serialVersionUID = 1L;

    private final String topic;

    public EvaluationRecordSerializer(String topic) {
        this.topic = topic;
    }

    @Override
    public void open(SerializationSchema.InitializationContext context, KafkaSinkContext sinkContext) {}

    @Override
    public ProducerRecord<byte[], byte[]> serialize(Verdict verdict, KafkaSinkContext context, Long timestamp) {
        byte[] key = verdict.runId() == null ? null : verdict.runId().getBytes(StandardCharsets.UTF_8);
        // stamped when written, like the other sinks: the events' own times are inside
        return new ProducerRecord<>(topic, null, null, key, EvaluationEventsWriter.toByteArray(verdict));
    }
}
