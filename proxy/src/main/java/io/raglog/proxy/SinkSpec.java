package io.raglog.proxy;

import io.raglog.proxy.record.FileRecordSink;
import io.raglog.proxy.record.KafkaRecordSink;
import io.raglog.proxy.record.RecordSink;
import java.nio.file.Path;
import java.util.Map;

/** Where the proxy writes: {@code kafka:BOOTSTRAP} or {@code file:PATH}. Opened when the proxy starts. */
public sealed interface SinkSpec permits SinkSpec.Kafka, SinkSpec.File {

    /** @param maxEventBytes the largest event the proxy can produce with its body cap */
    RecordSink open(int maxEventBytes);

    /** @param properties producer settings that win over the proxy's (security settings of a real cluster) */
    record Kafka(String bootstrap, String topic, Map<String, String> properties) implements SinkSpec {
        public Kafka {
            if (bootstrap == null || bootstrap.isBlank()) {
                throw new IllegalArgumentException("a kafka sink needs bootstrap servers");
            }
            topic = topic == null || topic.isBlank() ? KafkaRecordSink.DEFAULT_TOPIC : topic;
            properties = Map.copyOf(properties == null ? Map.of() : properties);
        }

        @Override
        public RecordSink open(int maxEventBytes) {
            return KafkaRecordSink.connect(bootstrap, topic, maxEventBytes, properties);
        }
    }

    record File(Path path) implements SinkSpec {
        @Override
        public RecordSink open(int maxEventBytes) {
            return new FileRecordSink(path);
        }
    }

    static SinkSpec kafka(String bootstrap) {
        return new Kafka(bootstrap, null, Map.of());
    }

    static SinkSpec file(Path path) {
        return new File(path);
    }

    /** {@code kafka:host:9092[,host2:9092]} or {@code file:calls.jsonl}. */
    static SinkSpec parse(String spec) {
        if (spec.startsWith("kafka:")) {
            return kafka(spec.substring("kafka:".length()));
        }
        if (spec.startsWith("file:") && spec.length() > "file:".length()) {
            return file(Path.of(spec.substring("file:".length())));
        }
        throw new IllegalArgumentException("a sink is kafka:BOOTSTRAP or file:PATH, got '" + spec + "'");
    }
}
