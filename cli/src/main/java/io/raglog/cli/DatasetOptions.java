package io.raglog.cli;

import io.raglog.job.JobSettings;
import io.raglog.job.RaglogConfig;
import io.raglog.llm.LlmOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/** The options every command that reads labeled calls shares (train, evaluate, thresholds). */
final class DatasetOptions {

    @Option(names = "--calls", arity = "1..*", paramLabel = "FILE", description = "CallEvent JSONL files.")
    List<Path> calls = new ArrayList<>();

    @Option(names = "--otlp", arity = "0..*", paramLabel = "FILE", description = "OTLP/JSON files.")
    List<Path> otlp = new ArrayList<>();

    @Option(names = "--labels", required = true, paramLabel = "FILE",
            description = "Label JSONL (raglog.label/v1), joined to the runs by run id.")
    Path labels;

    @Option(names = "--judge", paramLabel = "offline|openai|anthropic|bedrock",
            description = "The LLM judge for the features (default: llm.provider of --config or RAGLOG_LLM_PROVIDER, "
                    + "else offline).")
    String judge;

    @Option(names = "--config", paramLabel = "FILE",
            description = "raglog.yaml whose checks and LLM settings compute the features, as the job computes them "
                    + "(environment variables override it, as for run; --judge overrides both).")
    Path config;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where the replayed runs and features are kept (default: a temporary directory).")
    Path workDir;

    @Option(names = "--reuse-features",
            description = "Read the runs.jsonl and features.jsonl already in --work-dir instead of replaying the calls "
                    + "(e.g. to score another bundle on the same runs; they must come from these calls and checks).")
    boolean reuseFeatures;

    @Option(names = "--parallelism", defaultValue = "2", description = "Flink parallelism (default: ${DEFAULT-VALUE}).")
    int parallelism;

    /** How the job would check the runs: {@code --config}, then the environment, then {@code --judge}. */
    JobSettings jobSettings(Map<String, String> environment) throws IOException {
        Map<String, String> env = new HashMap<>(environment);
        if (judge != null) {
            env.put(LlmOptions.PROVIDER.variable(), judge);
        }
        return RaglogConfig.load(config, env).jobSettings();
    }

    /** Also accepts a simulator output directory: calls.jsonl, traces.otlp.jsonl, labels.jsonl. */
    LabeledDataset.Joined load() throws Exception {
        JobSettings job = jobSettings(System.getenv());
        if (reuseFeatures) {
            if (workDir == null || !Files.isRegularFile(workDir.resolve("runs.jsonl"))
                    || !Files.isRegularFile(workDir.resolve("features.jsonl"))) {
                throw new IllegalArgumentException("--reuse-features needs a --work-dir holding runs.jsonl and "
                        + "features.jsonl from an earlier train or evaluate");
            }
            return LabeledDataset.join(workDir.resolve("runs.jsonl"), workDir.resolve("features.jsonl"), labels,
                    job.checks().llm().judgeId());
        }
        Path dir = workDir != null ? workDir : Files.createTempDirectory("raglog-dataset-");
        return LabeledDataset.build(calls, otlp, labels, job, dir, parallelism);
    }
}
