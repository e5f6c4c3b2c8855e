package io.raglog.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.raglog.job.DefaultBundle;
import io.raglog.job.JobSettings;
import io.raglog.job.TopologySettings;
import io.raglog.otel.OtlpJson;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.Json;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code replay} over files in batch mode: the way a user debugs a day of logs offline. */
class ReplayCommandTest {

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    @TempDir
    Path dir;

    static Path resource(String name) throws URISyntaxException {
        return Path.of(ReplayCommandTest.class.getResource("/replay/" + name).toURI());
    }

    static List<Run> readRuns(Path file) throws Exception {
        return Files.readAllLines(file).stream().map(l -> Json.read(l, Run.class)).toList();
    }

    @Test
    void shouldAssembleOneRunPerOpenTelemetryTrace() throws Exception {
        Path runs = dir.resolve("runs.jsonl");
        ReplayCommand.Summary summary = ReplayCommand.replay(List.of(),
                List.of(resource("openinference-llamaindex-rag.otlp.jsonl"), resource("genai-semconv-rag.otlp.jsonl")),
                ReplayCommand.Outputs.runsOnly(runs, dir.resolve("dlq.jsonl")), 2, TopologySettings.DEFAULTS);

        assertThat(summary.runCount()).isEqualTo(2);
        assertThat(summary.deadLetterCount()).isZero();
        Run openInference = readRuns(runs).stream().filter(r -> r.runHint().startsWith("0af76519")).findFirst()
                .orElseThrow();
        assertThat(openInference.incomplete()).isFalse();
        for (Stage stage : Stage.values()) {
            assertThat(openInference.has(stage)).as(stage.id()).isTrue();
        }
        assertThat(openInference.stages().rerank().output()).isNotEmpty();
        assertThat(openInference.stages().generate().context()).extracting(Passage::text)
                .containsAnyElementsOf(openInference.stages().rerank().output().stream().map(Passage::text).toList());
        assertThat(openInference.stages().generate().answer()).isNotBlank();
    }

    @Test
    void shouldDeadLetterBadLinesWithTheirLineNumbersAndKeepTheGoodOnes() throws Exception {
        Path calls = dir.resolve("calls.jsonl");
        Files.write(calls, List.of("{\"schema\":\"raglog.call/v1\"}", "", "garbage"), StandardCharsets.UTF_8);
        Path otlp = dir.resolve("traces.jsonl");
        Files.writeString(otlp, Files.readString(resource("openinference-llamaindex-rag.otlp.jsonl"))
                + "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"traceId\":42}]}]}]}\n");
        Path runs = dir.resolve("runs.jsonl");
        Path dlq = dir.resolve("dlq.jsonl");

        ReplayCommand.Summary summary = ReplayCommand.replay(List.of(calls), List.of(otlp),
                ReplayCommand.Outputs.runsOnly(runs, dlq), 2, TopologySettings.DEFAULTS);

        assertThat(summary.runCount()).isEqualTo(1);
        List<DeadLetter> letters = Files.readAllLines(dlq).stream().map(l -> Json.read(l, DeadLetter.class)).toList();
        assertThat(letters).hasSize(3);
        assertThat(letters).filteredOn(l -> l.origin().equals(calls.toString()))
                .extracting(DeadLetter::offset).containsExactlyInAnyOrder(1L, 3L);
        assertThat(letters).filteredOn(l -> l.origin().equals(otlp.toString())).singleElement()
                .satisfies(l -> {
                    assertThat(l.offset()).isEqualTo(2L);
                    assertThat(l.reason()).contains("otlp_json");
                });
    }

    @Test
    void shouldWriteAFeatureVectorAndAVerdictForEveryRun() throws Exception {
        Path runs = dir.resolve("runs.jsonl");
        Path features = dir.resolve("features.jsonl");
        Path verdicts = dir.resolve("verdicts.jsonl");
        ReplayCommand.Summary summary = ReplayCommand.replay(List.of(),
                List.of(resource("openinference-llamaindex-rag.otlp.jsonl"), resource("genai-semconv-rag.otlp.jsonl")),
                new ReplayCommand.Outputs(runs, dir.resolve("dlq.jsonl"), features, verdicts, JobSettings.defaults()),
                2, TopologySettings.DEFAULTS);

        assertThat(summary.featureCount()).isEqualTo(2);
        assertThat(summary.verdictCount()).isEqualTo(2);
        List<io.raglog.schemas.RunFeatures> vectors = Files.readAllLines(features).stream()
                .map(l -> Json.read(l, io.raglog.schemas.RunFeatures.class)).toList();
        assertThat(vectors).allSatisfy(f -> {
            assertThat(f.features()).containsKey("retrieve.top_similarity");
            assertThat(f.llm().judge()).isEqualTo(JobSettings.defaults().checks().llm().judgeId());
        });
        List<io.raglog.schemas.Verdict> scored = Files.readAllLines(verdicts).stream()
                .map(l -> Json.read(l, io.raglog.schemas.Verdict.class)).toList();
        try (var bundle = DefaultBundle.load()) {
            assertThat(scored).allSatisfy(v -> {
                assertThat(v.modelBundle()).isEqualTo(bundle.id());
                assertThat(v.stages().get(Stage.GENERATE).present()).isTrue();
                assertThat(v.stages().get(Stage.GENERATE).probability()).isBetween(0.0, 1.0);
            });
        }
        assertThat(scored).extracting(io.raglog.schemas.Verdict::runId)
                .containsExactlyInAnyOrderElementsOf(readRuns(runs).stream().map(Run::runId).toList());
    }

    @Test
    void shouldWriteOnlyTheOutputsAskedForFromTheCommandLine() throws Exception {
        Path verdicts = dir.resolve("verdicts.jsonl");
        int exit = new picocli.CommandLine(new ReplayCommand()).execute(
                "--otlp", resource("openinference-llamaindex-rag.otlp.jsonl").toString(),
                "--verdicts-out", verdicts.toString());

        assertThat(exit).isZero();
        assertThat(Files.readAllLines(verdicts)).hasSize(1);
        // dead letters go beside the first output asked for; no runs file was asked for, so none is written
        assertThat(dir.resolve("verdicts.jsonl.dlq.jsonl")).exists();
        try (var files = Files.list(dir)) {
            assertThat(files.map(f -> f.getFileName().toString()))
                    .containsExactlyInAnyOrder("verdicts.jsonl", "verdicts.jsonl.dlq.jsonl");
        }
    }

    @Test
    void shouldWriteEachVerdictAsEvaluationEventsOnItsRunsTraceAndStageSpans() throws Exception {
        Path openInference = resource("openinference-llamaindex-rag.otlp.jsonl");
        Path genAi = resource("genai-semconv-rag.otlp.jsonl");
        Path evaluations = dir.resolve("evaluations.otlp.jsonl");
        int exit = new picocli.CommandLine(new ReplayCommand()).execute("--otlp", openInference.toString(),
                genAi.toString(), "--evaluations-out", evaluations.toString());

        assertThat(exit).isZero();
        Map<String, String> inputSpans = new HashMap<>(); // span id -> its trace id, as the input carried them
        for (Path input : List.of(openInference, genAi)) {
            for (String line : Files.readAllLines(input)) {
                OtlpJson.read(line, ExportTraceServiceRequest.newBuilder()).build().getResourceSpansList().stream()
                        .flatMap(r -> r.getScopeSpansList().stream()).flatMap(s -> s.getSpansList().stream())
                        .forEach(s -> inputSpans.put(hex(s.getSpanId()), hex(s.getTraceId())));
            }
        }
        List<ExportLogsServiceRequest> requests = Files.readAllLines(evaluations).stream()
                .map(l -> OtlpJson.read(l, ExportLogsServiceRequest.newBuilder()).build()).toList();
        assertThat(requests).hasSize(2);
        Map<String, Map<String, String>> spanByTraceAndEvaluation = new HashMap<>();
        for (ExportLogsServiceRequest request : requests) {
            ResourceLogs resource = request.getResourceLogs(0);
            assertThat(resource.getScopeLogs(0).getScope().getName()).isEqualTo("raglog");
            for (LogRecord event : resource.getScopeLogs(0).getLogRecordsList()) {
                assertThat(event.getEventName()).isEqualTo("gen_ai.evaluation.result");
                String span = hex(event.getSpanId());
                assertThat(inputSpans).as("the event's span is one of the input's").containsKey(span);
                assertThat(hex(event.getTraceId())).isEqualTo(inputSpans.get(span));
                String name = event.getAttributesList().stream()
                        .filter(kv -> kv.getKey().equals("gen_ai.evaluation.name")).findFirst().orElseThrow()
                        .getValue().getStringValue();
                spanByTraceAndEvaluation.computeIfAbsent(hex(event.getTraceId()), t -> new HashMap<>()).put(name, span);
            }
        }
        // the OpenInference trace: each stage's result on the span of the call that made it; context assembly makes
        // no call and is read from the generator's prompt, so its result is on the generator's span
        assertThat(spanByTraceAndEvaluation.get("0af7651916cd43dd8448eb211c80319c")).containsExactlyInAnyOrderEntriesOf(
                Map.of("raglog.rewrite", "9f8e7d6c5b4a3921", "raglog.embed", "2e3f4a5b6c7d8e9f",
                        "raglog.retrieve", "1d2c3b4a59687706", "raglog.rerank", "3a4b5c6d7e8f9012",
                        "raglog.assemble", "6d7e8f90a1b2c3d4", "raglog.generate", "6d7e8f90a1b2c3d4"));
        assertThat(spanByTraceAndEvaluation.get("5b8efff798038103d269b633813fc60c"))
                .containsEntry("raglog.embed", "b2c3d4e5f6071829")
                .containsEntry("raglog.retrieve", "c3d4e5f60718293a")
                .containsEntry("raglog.generate", "d4e5f60718293a4b");
        assertThat(requests).extracting(r -> r.getResourceLogs(0).getResource().getAttributes(0).getValue()
                .getStringValue()).as("service.name: the pipeline").contains("acme-support-rag");
    }

    private static String hex(com.google.protobuf.ByteString id) {
        return java.util.HexFormat.of().formatHex(id.toByteArray());
    }

    @Test
    void shouldRefuseAReplayThatWritesNothing() throws Exception {
        int exit = new picocli.CommandLine(new ReplayCommand()).execute(
                "--otlp", resource("openinference-llamaindex-rag.otlp.jsonl").toString());

        assertThat(exit).isEqualTo(2);
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }

    /** Recorded by raglog's own proxy in front of local OpenAI, Qdrant and Cohere stand-ins (proxy RagRunCaptureTest). */
    @Test
    void shouldAssembleARunRecordedByTheProxy() throws Exception {
        Path runs = dir.resolve("runs.jsonl");
        ReplayCommand.Summary summary = ReplayCommand.replay(List.of(resource("proxy-captured-run.jsonl")), List.of(),
                ReplayCommand.Outputs.runsOnly(runs, dir.resolve("dlq.jsonl")), 2, TopologySettings.DEFAULTS);

        assertThat(summary.deadLetterCount()).isZero();
        assertThat(readRuns(runs)).singleElement().satisfies(run -> {
            assertThat(run.incomplete()).isFalse();
            assertThat(run.callIds()).hasSize(5);
            for (Stage stage : Stage.values()) {
                assertThat(run.has(stage)).as(stage.id()).isTrue();
            }
            assertThat(run.stages().retrieve().reconstructed()).isFalse();
            assertThat(run.stages().generate().answer()).isNotBlank();
        });
    }
}
