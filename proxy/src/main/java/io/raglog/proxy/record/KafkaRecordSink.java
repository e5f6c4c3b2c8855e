package io.raglog.proxy.record;

import io.raglog.schemas.CallEvent;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Produces CallEvents to {@code raglog.calls}. The key is the run hint, else the pipeline, so one run's calls share a
 * partition and stay in order. The record timestamp is the call's {@code ended_at}: raglog's job derives its
 * event-time watermarks per partition from record timestamps, so a producer-side "now" would let a slow proxy's calls
 * arrive behind the watermark and be treated as late.
 */
public final class KafkaRecordSink implements RecordSink {

    public static final String DEFAULT_TOPIC = "raglog.calls";

    private final Producer<String, byte[]> producer;
    private final String topic;
    private final String describe;

    public KafkaRecordSink(Producer<String, byte[]> producer, String topic, String describe) {
        this.producer = producer;
        this.topic = topic;
        this.describe = describe;
    }

    /**
     * @param maxEventBytes the largest event the proxy may produce (two capped bodies plus headers); the topic's
     *     {@code max.message.bytes} must allow it too, else the broker refuses it and the event counts as dropped
     * @param overrides any producer setting, e.g. the security settings of a real cluster; they win over ours
     */
    public static KafkaRecordSink connect(String bootstrap, String topic, int maxEventBytes, Map<String, String> overrides) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "raglog-proxy");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        props.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, Integer.toString(maxEventBytes));
        // With Kafka down, send() waits this long for metadata or buffer space, on the recorder thread only; the
        // bounded queue in front of it absorbs the wait and, once full, drops recordings rather than calls.
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "1000");
        props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "30000");
        props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000");
        props.putAll(overrides);
        return new KafkaRecordSink(new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer()),
                topic, "kafka " + bootstrap + " topic " + topic);
    }

    @Override
    public void write(CallEvent event, byte[] json, Consumer<Exception> done) {
        String key = event.hasRunHint() ? event.runHint() : event.pipeline();
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, null, event.endedAt().toEpochMilli(), key,
                json);
        try {
            producer.send(record, (metadata, e) -> done.accept(e));
        } catch (RuntimeException e) {
            // Metadata or buffer space not available within max.block.ms: Kafka is down or far behind.
            done.accept(e);
        }
    }

    @Override
    public String describe() {
        return describe;
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
