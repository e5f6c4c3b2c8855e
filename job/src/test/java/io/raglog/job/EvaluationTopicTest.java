package io.raglog.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.raglog.schemas.KnowledgeGap;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageVerdict;
import io.raglog.schemas.Verdict;
import io.raglog.schemas.VerdictStages;
import io.raglog.sink.EvaluationRecordSerializer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;

/** The evaluations topic: a typed option like the other topics, and what its records hold. */
class EvaluationTopicTest {

    @Test
    void shouldNameTheTopicByDefaultBySettingAndBesideTheFaultRatesInOlderTopicSets() throws Exception {
        assertThat(Topics.DEFAULTS.evaluations()).isEqualTo("raglog.evaluations");
        assertThat(Topics.prefixed("t").all()).contains("t.evaluations");
        assertThat(new Topics("c", "o", "r", "d", "v", "f", "x.fault-rates").evaluations()).isEqualTo("x.evaluations");
        assertThat(new Topics("c", "o", "r", "d", "v", "f", "x.fault-rates", "x.drift").evaluations())
                .isEqualTo("x.evaluations");

        assertThat(RaglogConfig.parse("kafka: {topics: {calls: my.calls}}", Map.of()).kafka().topics().evaluations())
                .isEqualTo("raglog.evaluations");
        assertThat(RaglogConfig.parse("kafka: {topics: {evaluations: otel.evals}}", Map.of()).kafka().topics()
                .evaluations()).isEqualTo("otel.evals");
        assertThat(RaglogConfig.parse("", Map.of("RAGLOG_KAFKA_TOPICS_EVALUATIONS", "env.evals")).kafka().topics()
                .evaluations()).isEqualTo("env.evals");
    }

    @Test
    void shouldWriteEachVerdictAsAnOtlpProtoLogsRequestKeyedByItsRun() throws Exception {
        StageVerdict sound = new StageVerdict(true, 0.1, 0.5, false, List.of(), null, null);
        Verdict verdict = new Verdict(Verdict.SCHEMA_V2, "run-9", "faq-bot", "q?", "a.",
                new VerdictStages(StageVerdict.absent(), sound, sound, StageVerdict.absent(), sound), List.of(),
                false, KnowledgeGap.undecided(), new LlmUsage(0, 0, 0, null, false, List.of(), "none"), "b",
                Instant.parse("2026-12-01T00:00:00Z"));

        ProducerRecord<byte[], byte[]> record = new EvaluationRecordSerializer("raglog.evaluations")
                .serialize(verdict, null, null);

        assertThat(record.topic()).isEqualTo("raglog.evaluations");
        assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo("run-9");
        ExportLogsServiceRequest request = ExportLogsServiceRequest.parseFrom(record.value());
        assertThat(request.getResourceLogs(0).getScopeLogs(0).getLogRecordsList())
                .extracting(r -> r.getAttributes(0).getValue().getStringValue())
                .containsExactly("raglog." + Stage.EMBED.id(), "raglog.retrieve", "raglog.generate");
    }
}
