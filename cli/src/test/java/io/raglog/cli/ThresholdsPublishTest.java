package io.raglog.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.cli.io.EmbeddedKafka;
import io.raglog.job.DefaultBundle;
import io.raglog.schemas.Json;
import io.raglog.schemas.Label;
import io.raglog.schemas.PipelineThresholds;
import io.raglog.schemas.Stage;
import io.raglog.score.ModelBundle;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.FileSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code raglog thresholds --pipeline P --publish} from labeled files (the shape {@code raglog export} writes): the
 * override holds that pipeline's thresholds for the bundle they were chosen on, and each publication is the next
 * version.
 */
class ThresholdsPublishTest {

    private static final String PIPELINE = "support-assistant";

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1)
            .setNumberSlotsPerTaskManager(2)
            .build());

    private static EmbeddedKafka kafka;

    @TempDir
    Path dir;

    @BeforeAll
    static void startBroker() throws Exception {
        kafka = EmbeddedKafka.start(Path.of(System.getProperty("java.io.tmpdir"), "kafka-" + System.nanoTime()));
    }

    @AfterAll
    static void stopBroker() throws Exception {
        kafka.close();
    }

    @Test
    void shouldPublishThePipelinesNextOverrideForTheBundleItWasChosenOn() throws Exception {
        Path labeled = dir.resolve("labeled");
        try (FileSink sink = new FileSink(labeled)) {
            new Simulator(SimulatorOptions.of("openai-qdrant-cohere,tei-pinecone-anthropic", 60, 61)).run(sink);
        }
        long ownRuns = Files.readAllLines(labeled.resolve(FileSink.LABELS)).stream()
                .map(l -> Json.read(l, Label.class)).filter(l -> l.pipeline().equals(PIPELINE)).count();
        String topic = "publish.thresholds";
        String[] publish = {"thresholds", "--calls", labeled.resolve(FileSink.CALLS).toString(), "--labels",
                labeled.resolve(FileSink.LABELS).toString(), "--judge", "offline", "--work-dir",
                dir.resolve("work").toString(), "--pipeline", PIPELINE, "--max-fpr", "0.2", "--source", "simulator",
                "--publish", kafka.bootstrapServers(), "--topic", topic};

        assertThat(new CommandLine(new RaglogCli()).execute(publish)).isZero();
        String[] again = Arrays.copyOf(publish, publish.length + 1);
        again[publish.length] = "--reuse-features";
        assertThat(new CommandLine(new RaglogCli()).execute(again)).isZero();

        List<PipelineThresholds> published = Demo.readAll(kafka.bootstrapServers(), topic).stream()
                .map(v -> Json.read(v, PipelineThresholds.class)).toList();
        String bundleId;
        try (ModelBundle bundle = DefaultBundle.load()) {
            bundleId = bundle.id();
        }
        assertThat(published).extracting(PipelineThresholds::version).containsExactly(1L, 2L);
        assertThat(published).allSatisfy(o -> {
            assertThat(o.pipeline()).isEqualTo(PIPELINE);
            assertThat(o.modelBundle()).isEqualTo(bundleId);
            assertThat(o.basis()).isEqualTo(new PipelineThresholds.Basis((int) ownRuns, 0.2, "simulator"));
            assertThat(o.byStage().keySet()).isSubsetOf(Arrays.asList(Stage.values()));
        });
        assertThat(published.get(1).thresholds()).isEqualTo(published.get(0).thresholds());
    }

    @Test
    void shouldRefuseToPublishWithoutAPipeline() {
        int code = new CommandLine(new RaglogCli()).execute("thresholds", "--calls", "c.jsonl", "--labels",
                "l.jsonl", "--publish", kafka.bootstrapServers());
        assertThat(code).isEqualTo(2);
    }
}
