package io.raglog.otel;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.raglog.schemas.EmbedStage;
import io.raglog.schemas.GenerateStage;
import io.raglog.schemas.HttpError;
import io.raglog.schemas.Json;
import io.raglog.schemas.KnowledgeGap;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.RerankStage;
import io.raglog.schemas.RetrieveStage;
import io.raglog.schemas.RewriteStage;
import io.raglog.schemas.Run;
import io.raglog.schemas.RunStages;
import io.raglog.schemas.SchemaIds;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageVerdict;
import io.raglog.schemas.ThresholdsUsed;
import io.raglog.schemas.TokenUsage;
import io.raglog.schemas.TraceLink;
import io.raglog.schemas.Verdict;
import io.raglog.schemas.VerdictStages;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class EvaluationEventsTest {

    private static final String TRACE = "5b8efff798038103d269b633813fc60c";
    private static final String EMBED_SPAN = "eee19b7ec3c1b174";
    private static final String RETRIEVE_SPAN = "a1b2c3d4e5f60718";
    private static final String GENERATE_SPAN = "0f1e2d3c4b5a6978";
    private static final Instant SCORED = Instant.parse("2026-11-30T10:15:30.123456789Z");

    @Test
    void shouldSpellAProbabilityAsTheFormatterDoes() {
        SplittableRandom random = new SplittableRandom(5);
        List<Double> values = new java.util.ArrayList<>(List.of(0.0, -0.0, 1.0, 0.0005, 0.0015, 0.1235, 0.9995, 0.12345,
                2.0005, -0.0004, -0.5, 1e-9, 123456.78951, Double.NaN, Double.POSITIVE_INFINITY, Double.MIN_VALUE));
        for (int i = 0; i < 50_000; i++) {
            values.add(random.nextDouble());
            values.add(random.nextInt(0, 100_000) / 10_000.0 + 0.00005); // the halfway cases at the fourth decimal
            values.add(Double.longBitsToDouble(random.nextLong() & 0x3fffffffffffffffL)); // all magnitudes below 2
        }
        for (double v : values) {
            assertThat(EvaluationEvents.threeDecimals(v)).as("%s", v)
                    .isEqualTo(String.format(Locale.ROOT, "%.3f", v));
        }
    }

    @Test
    void shouldWriteOneEvaluationEventPerPresentStageOnTheStagesSpans() throws Exception {
        Verdict verdict = verdict().withTrace(new TraceLink(TRACE,
                Map.of("embed", EMBED_SPAN, "retrieve", RETRIEVE_SPAN, "generate", GENERATE_SPAN)));

        // what a receiver gets: the request's protobuf bytes, decoded by opentelemetry-proto
        ExportLogsServiceRequest request = ExportLogsServiceRequest.parseFrom(EvaluationEvents.of(verdict).toByteArray());

        assertThat(request.getResourceLogsCount()).isEqualTo(1);
        ResourceLogs resource = request.getResourceLogs(0);
        assertThat(attributes(resource.getResource().getAttributesList()))
                .containsExactly(Map.entry("service.name", "support-assistant"));
        assertThat(resource.getScopeLogsCount()).isEqualTo(1);
        assertThat(resource.getScopeLogs(0).getScope().getName()).isEqualTo("raglog");
        List<LogRecord> events = resource.getScopeLogs(0).getLogRecordsList();
        assertThat(events).extracting(e -> attributes(e.getAttributesList()).get("gen_ai.evaluation.name"))
                .containsExactly("raglog.embed", "raglog.retrieve", "raglog.generate");
        assertThat(events).allSatisfy(e -> {
            assertThat(e.getEventName()).isEqualTo("gen_ai.evaluation.result");
            assertThat(hex(e.getTraceId().toByteArray())).isEqualTo(TRACE);
            assertThat(e.getTimeUnixNano()).isEqualTo(1_796_033_730_123_456_789L);
            assertThat(e.hasBody()).as("events do not use the body").isFalse();
            assertThat(attributes(e.getAttributesList())).containsEntry("raglog.run_id", "run-1")
                    .containsEntry("raglog.model_bundle", "bundle-7")
                    .doesNotContainKey("event.name");
        });
        assertThat(events).extracting(e -> hex(e.getSpanId().toByteArray()))
                .containsExactly(EMBED_SPAN, RETRIEVE_SPAN, GENERATE_SPAN);

        LogRecord retrieve = events.get(1);
        Map<String, Object> attrs = attributes(retrieve.getAttributesList());
        assertThat(attrs).containsEntry("gen_ai.evaluation.score.value", 0.91)
                .containsEntry("gen_ai.evaluation.score.label", "fault")
                .containsEntry("gen_ai.evaluation.explanation",
                        "no passage answers the question; the top passage is about 2022")
                .containsEntry("raglog.threshold", 0.5)
                .containsEntry("raglog.repair_hint", "raise top_k");
        assertThat(retrieve.getSeverityNumber()).isEqualTo(SeverityNumber.SEVERITY_NUMBER_WARN);

        Map<String, Object> sound = attributes(events.get(0).getAttributesList());
        assertThat(sound).containsEntry("gen_ai.evaluation.score.value", 0.12)
                .containsEntry("gen_ai.evaluation.score.label", "sound")
                .containsEntry("gen_ai.evaluation.explanation",
                        "fault probability 0.120, below the stage's threshold 0.400")
                .doesNotContainKey("raglog.repair_hint");
        assertThat(events.get(0).getSeverityNumber()).isEqualTo(SeverityNumber.SEVERITY_NUMBER_INFO);
    }

    @Test
    void shouldLeaveTraceAndSpanOutWhenTheRunWasNotTraced() {
        ExportLogsServiceRequest request = EvaluationEvents.of(verdict());

        List<LogRecord> events = request.getResourceLogs(0).getScopeLogs(0).getLogRecordsList();
        assertThat(events).hasSize(3).allSatisfy(e -> {
            assertThat(e.getTraceId().isEmpty()).isTrue();
            assertThat(e.getSpanId().isEmpty()).isTrue();
        });
    }

    @Test
    void shouldWriteAVerdictWithoutTraceAsBeforeAndOneWithItReadableBack() {
        assertThat(Json.write(verdict())).doesNotContain("\"trace\"");

        Verdict traced = verdict().withTrace(new TraceLink(TRACE, Map.of("generate", GENERATE_SPAN)));
        String json = Json.write(traced);
        assertThat(json).contains("\"trace\":{\"trace_id\":\"" + TRACE + "\",\"span_ids\":{\"generate\":\""
                + GENERATE_SPAN + "\"}}");
        assertThat(Json.read(json, Verdict.class)).isEqualTo(traced);
    }

    @Test
    void shouldFindTheRunsTraceAndEachStagesLastSucceededSpanInItsCallIds() {
        String failedRetry = TRACE + ":" + "1111111111111111";
        String generate = TRACE + ":" + GENERATE_SPAN;
        Run run = run(List.of(TRACE + ":" + EMBED_SPAN), List.of(TRACE + ":" + RETRIEVE_SPAN),
                List.of(generate, failedRetry), List.of(new HttpError(failedRetry, Stage.GENERATE, 429)));

        TraceLink link = TraceLinks.of(run);

        assertThat(link.traceId()).isEqualTo(TRACE);
        assertThat(link.spanIds()).containsExactly(Map.entry("embed", EMBED_SPAN),
                Map.entry("retrieve", RETRIEVE_SPAN), Map.entry("generate", GENERATE_SPAN));
    }

    @Test
    void shouldLinkNoTraceForAProxyCapturedRun() {
        Run run = run(List.of("7c1f0a9e-2d4b-4c1e-9f3a-0b5d6e7f8a9b"), List.of("0d9a6c3e-1b2f-4a5c-8e7d-6f5a4b3c2d1e"),
                List.of("3e2d1c0b-9a8f-4e6d-5c4b-3a2f1e0d9c8b"), List.of());

        assertThat(TraceLinks.of(run)).isNull();
    }

    @Test
    void shouldWriteOtlpJsonThatReadsBackToTheSameRequest() throws Exception {
        ExportLogsServiceRequest request = EvaluationEvents.of(verdict().withTrace(new TraceLink(TRACE,
                Map.of("embed", EMBED_SPAN, "retrieve", RETRIEVE_SPAN, "generate", GENERATE_SPAN))));

        String line = OtlpJson.write(request);

        assertThat(line).doesNotContain("\n")
                .contains("\"resourceLogs\":[{")
                .contains("\"scopeLogs\":[{")
                .contains("\"logRecords\":[{")
                .contains("\"eventName\":\"gen_ai.evaluation.result\"")
                .contains("\"traceId\":\"" + TRACE + "\"")
                .contains("\"spanId\":\"" + RETRIEVE_SPAN + "\"")
                .contains("\"severityNumber\":13")
                .contains("\"timeUnixNano\":\"1796033730123456789\"")
                .contains("{\"key\":\"gen_ai.evaluation.score.value\",\"value\":{\"doubleValue\":0.91}}");
        assertThat(OtlpJson.read(line, ExportLogsServiceRequest.newBuilder()).build()).isEqualTo(request);
    }

    @Test
    void shouldSayWhichThresholdsDecidedWhenTheVerdictDoes() {
        Verdict v = verdict();
        Verdict decided = new Verdict(Verdict.SCHEMA_V4, v.runId(), v.pipeline(), v.question(), v.answer(), v.stages(),
                v.flaggedStages(), v.reassigned(), v.knowledgeGap(), v.llm(), v.modelBundle(), v.scoredAt(), null,
                new ThresholdsUsed("support-assistant/v3", "reviews", Map.of("retrieve", 0.62)));

        assertThat(EvaluationEvents.of(decided).getResourceLogs(0).getScopeLogs(0).getLogRecordsList())
                .allSatisfy(e -> assertThat(attributes(e.getAttributesList()))
                        .containsEntry("raglog.thresholds.version", "support-assistant/v3")
                        .containsEntry("raglog.thresholds.source", "reviews"));
        assertThat(EvaluationEvents.of(v).getResourceLogs(0).getScopeLogs(0).getLogRecordsList())
                .allSatisfy(e -> assertThat(attributes(e.getAttributesList()))
                        .doesNotContainKey("raglog.thresholds.version"));
    }

    private static Verdict verdict() {
        StageVerdict embed = new StageVerdict(true, 0.12, 0.4, false, List.of(), null,
                new StageVerdict.ModelProbabilities(0.1, 0.1, 0.2));
        StageVerdict retrieve = new StageVerdict(true, 0.91, 0.5, true,
                List.of("no passage answers the question", "the top passage is about 2022"), "raise top_k", null);
        StageVerdict generate = new StageVerdict(true, 0.2, 0.5, false, List.of(), null, null);
        return new Verdict(Verdict.SCHEMA_V2, "run-1", "support-assistant", "What was the cash flow in 2023?",
                "It was $4.1 billion.", new VerdictStages(StageVerdict.absent(), embed, retrieve, StageVerdict.absent(),
                        generate), List.of(Stage.RETRIEVE), false, KnowledgeGap.undecided(),
                new LlmUsage(0, 0, 0, null, false, List.of(), "none"), "bundle-7", SCORED);
    }

    private static Run run(List<String> embedCalls, List<String> retrieveCalls, List<String> generateCalls,
            List<HttpError> errors) {
        Instant at = Instant.parse("2026-11-30T10:15:00Z");
        return new Run(SchemaIds.RUN_V1, "run-1", "support-assistant", TRACE, "q?", at, at, false, null,
                List.of(), errors, new RunStages(RewriteStage.absent(),
                        new EmbedStage(true, 5, embedCalls, "m", List.of("q"), 3),
                        new RetrieveStage(true, 5, retrieveCalls, "qdrant", null, 2, List.of(), false),
                        RerankStage.absent(),
                        new GenerateStage(true, 5, generateCalls, "gpt", List.of(), "p", "a", TokenUsage.UNKNOWN,
                                false)));
    }

    private static Map<String, Object> attributes(List<KeyValue> list) {
        return list.stream().collect(Collectors.toMap(KeyValue::getKey, kv -> value(kv.getValue()),
                (a, b) -> a, java.util.LinkedHashMap::new));
    }

    private static Object value(AnyValue v) {
        return switch (v.getValueCase()) {
            case STRING_VALUE -> v.getStringValue();
            case DOUBLE_VALUE -> v.getDoubleValue();
            case INT_VALUE -> v.getIntValue();
            case BOOL_VALUE -> v.getBoolValue();
            default -> v.toString();
        };
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
