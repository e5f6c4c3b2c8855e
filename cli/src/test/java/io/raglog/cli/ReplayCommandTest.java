package io.raglog.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.job.DefaultBundle;
import io.raglog.job.JobSettings;
import io.raglog.job.TopologySettings;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.Json;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
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
