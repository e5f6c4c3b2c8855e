package io.raglog.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.job.JobSettings;
import io.raglog.llm.ProviderKind;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** train, evaluate and thresholds compute features with the settings the job would use: the same file, the same keys. */
class DatasetOptionsTest {

    @TempDir
    Path dir;

    @Test
    void trainEvaluateAndThresholdsReadTheJobsConfiguration() throws Exception {
        Path config = Files.writeString(dir.resolve("raglog.yaml"),
                "checks: {vector_checks: false, embedding_threads: 3}\n"
                        + "assembly: {run_timeout: 7m}\n");
        Map<Object, String> ownOption = Map.of(new TrainCommand(), "--out", new EvaluateCommand(), "--bundle",
                new ThresholdsCommand(), "--bundle");
        for (Map.Entry<Object, String> each : ownOption.entrySet()) {
            Object command = each.getKey();
            new CommandLine(command).parseArgs("--calls", "calls.jsonl", "--labels", "labels.jsonl", each.getValue(),
                    "b", "--config", config.toString());
            DatasetOptions data = datasetOptions(command);

            JobSettings job = data.jobSettings(Map.of("RAGLOG_EMBEDDING_THREADS", "2"));

            assertThat(job.checks().vectorChecks()).as("from the file").isFalse();
            assertThat(job.checks().embeddingThreads()).as("the environment over the file").isEqualTo(2);
            assertThat(job.topology().assembly().runTimeout().toMinutes()).isEqualTo(7);
            assertThat(job.checks().llm().provider()).isEqualTo(ProviderKind.OFFLINE);
        }
    }

    @Test
    void judgeOverridesFileAndEnvironment() throws Exception {
        Path config = Files.writeString(dir.resolve("raglog.yaml"), "llm: {provider: openai}\n");
        TrainCommand train = new TrainCommand();
        new CommandLine(train).parseArgs("--calls", "c", "--labels", "l", "--out", "b", "--config", config.toString(),
                "--judge", "offline");

        assertThat(train.data.jobSettings(Map.of("RAGLOG_LLM_API_KEY", "k")).checks().llm().provider()).isEqualTo(ProviderKind.OFFLINE);
    }

    private static DatasetOptions datasetOptions(Object command) {
        if (command instanceof TrainCommand t) {
            return t.data;
        }
        if (command instanceof EvaluateCommand e) {
            return e.data;
        }
        return ((ThresholdsCommand) command).data;
    }
}
