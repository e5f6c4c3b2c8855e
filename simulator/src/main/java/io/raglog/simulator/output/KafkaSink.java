package io.raglog.simulator.output;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.Label;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Produces what the proxy and the OTel Collector would: CallEvents to {@code raglog.calls} keyed by pipeline (a
 * pipeline's calls stay in order on one partition), OTLP/JSON requests to {@code raglog.otlp}, and the labels to
 * {@code raglog.labels} keyed by run id for the benchmarks to score against.
 */
public final class KafkaSink implements SimulationSink {

    /** The topics to write to. */
    public record Topics(String calls, String otlp, String labels) {
        public static final Topics DEFAULT = new Topics("raglog.calls", "raglog.otlp", "raglog.labels");
    }

    private final Producer<String, byte[]> producer;
    private final Topics topics;
    private final AtomicReference<Exception> failure = new AtomicReference<>();

    public KafkaSink(Producer<String, byte[]> producer, Topics topics) {
        this.producer = producer;
        this.topics = topics;
    }

    public static KafkaSink connect(String bootstrap, Topics topics) {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        props.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        props.put(ProducerConfig.CLIENT_ID_CONFIG, "raglog-simulator");
        return new KafkaSink(new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer()), topics);
    }

    @Override
    public void call(CallEvent call) {
        // The record timestamp is the call's end, as the proxy writes it: raglog's watermarks come from it.
        send(new ProducerRecord<>(topics.calls(), null, call.endedAt().toEpochMilli(), call.pipeline(),
                Json.writeBytes(call)));
    }

    @Override
    public void traces(ObjectNode request) {
        String service = request.path("resourceSpans").path(0).path("resource").path("attributes").path(0)
                .path("value").path("stringValue").asText(null);
        send(new ProducerRecord<>(topics.otlp(), null, lastSpanEndMillis(request), service, Json.writeBytes(request)));
    }

    @Override
    public void label(Label label) {
        send(new ProducerRecord<>(topics.labels(), label.runId(), Json.writeBytes(label)));
    }

    /** The Collector exports a batch after its spans end; the latest span end stands in for the export time. */
    static Long lastSpanEndMillis(ObjectNode request) {
        long last = -1;
        for (var resourceSpans : request.path("resourceSpans")) {
            for (var scopeSpans : resourceSpans.path("scopeSpans")) {
                for (var span : scopeSpans.path("spans")) {
                    last = Math.max(last, Long.parseLong(span.path("endTimeUnixNano").asText("0")) / 1_000_000L);
                }
            }
        }
        return last < 0 ? null : last;
    }

    private void send(ProducerRecord<String, byte[]> record) {
        Exception earlier = failure.get();
        if (earlier != null) {
            throw new IllegalStateException("producing to Kafka failed: " + earlier.getMessage(), earlier);
        }
        producer.send(record, (metadata, e) -> {
            if (e != null) {
                failure.compareAndSet(null, e);
            }
        });
    }

    @Override
    public void close() {
        try {
            producer.flush();
        } finally {
            producer.close();
        }
        Exception e = failure.get();
        if (e != null) {
            throw new IllegalStateException("producing to Kafka failed: " + e.getMessage(), e);
        }
    }

    /** Blocks until everything sent so far is acknowledged (used by tests and at the end of a paced run). */
    public void flush() throws ExecutionException {
        producer.flush();
        Exception e = failure.get();
        if (e != null) {
            throw new ExecutionException(e);
        }
    }
}
