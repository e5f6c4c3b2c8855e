package io.raglog.ingest;

import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Hands each Kafka record on as it is, with where it came from. Decoding happens in the job, not here, because a
 * deserializer that throws fails the source; a message raglog cannot read must reach the dead-letter topic instead.
 */
public class RawMessageDeserializer implements KafkaRecordDeserializationSchema<RawMessage> {

    private static final long serialVersionUID = 1L;

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<RawMessage> out) {
        byte[] value = record.value() == null ? new byte[0] : record.value();
        out.collect(new RawMessage(record.topic(), record.partition(), record.offset(), value));
    }

    @Override
    public TypeInformation<RawMessage> getProducedType() {
        return RawMessage.TYPE;
    }
}
