package io.raglog.simulator.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Json;
import io.raglog.schemas.Label;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import java.nio.file.Path;
import java.util.List;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

/** What a benchmark sees on Kafka: the proxy's topic, the collector's topic and the labels, keyed for ordering. */
class KafkaSinkTest {

    @Test
    void shouldProduceCallsTracesAndLabelsToTheirTopics() {
        MockProducer<String, byte[]> producer = new MockProducer<>(true, null, new StringSerializer(),
                new ByteArraySerializer());
        Simulator simulator = new Simulator(SimulatorOptions.of("all", 50, 1)
                .withCorpus(Path.of("src/test/resources/corpus/tiny")));
        try (KafkaSink sink = new KafkaSink(producer, KafkaSink.Topics.DEFAULT)) {
            simulator.run(sink);
        }
        List<ProducerRecord<String, byte[]>> sent = producer.history();
        assertThat(sent).extracting(ProducerRecord::topic)
                .contains("raglog.calls", "raglog.otlp", "raglog.labels");
        for (ProducerRecord<String, byte[]> r : sent) {
            String json = new String(r.value(), java.nio.charset.StandardCharsets.UTF_8);
            if (r.topic().equals("raglog.calls")) {
                assertThat(json).contains("\"schema\":\"raglog.call/v1\"").contains("\"pipeline\":\"" + r.key() + "\"");
            } else if (r.topic().equals("raglog.otlp")) {
                assertThat(r.key()).isEqualTo("kb-llamaindex");
                assertThat(json).startsWith("{\"resourceSpans\":");
            } else {
                assertThat(Json.read(json, Label.class).runId()).isEqualTo(r.key());
            }
        }
        assertThat(sent.stream().filter(r -> r.topic().equals("raglog.labels")).count()).isEqualTo(50);
        assertThat(producer.closed()).isTrue();
    }
}
