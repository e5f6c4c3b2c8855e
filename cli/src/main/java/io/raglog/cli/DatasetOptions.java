package io.raglog.cli;

import io.raglog.checkstage.ChecksSettings;
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

    @Option(names = "--judge", paramLabel = "offline|openai|anthropic",
            description = "The LLM judge for the features (default: RAGLOG_LLM_PROVIDER, else offline).")
    String judge;

    @Option(names = "--work-dir", paramLabel = "DIR",
            description = "Where the replayed runs and features are kept (default: a temporary directory).")
    Path workDir;

    @Option(names = "--reuse-features",
            description = "Read the runs.jsonl and features.jsonl already in --work-dir instead of replaying the calls "
                    + "(e.g. to score another bundle on the same runs; they must come from these calls and checks).")
    boolean reuseFeatures;

    @Option(names = "--parallelism", defaultValue = "2", description = "Flink parallelism (default: ${DEFAULT-VALUE}).")
    int parallelism;

    /** Also accepts a simulator output directory: calls.jsonl, traces.otlp.jsonl, labels.jsonl. */
    LabeledDataset.Joined load() throws Exception {
        Map<String, String> env = new HashMap<>(System.getenv());
        if (judge != null) {
            env.put("RAGLOG_LLM_PROVIDER", judge);
        }
        ChecksSettings checks = ChecksSettings.fromEnv(env);
        if (reuseFeatures) {
            if (workDir == null || !Files.isRegularFile(workDir.resolve("runs.jsonl"))
                    || !Files.isRegularFile(workDir.resolve("features.jsonl"))) {
                throw new IllegalArgumentException("--reuse-features needs a --work-dir holding runs.jsonl and "
                        + "features.jsonl from an earlier train or evaluate");
            }
            return LabeledDataset.join(workDir.resolve("runs.jsonl"), workDir.resolve("features.jsonl"), labels,
                    checks.llm().judgeId());
        }
        Path dir = workDir != null ? workDir : Files.createTempDirectory("raglog-dataset-");
        return LabeledDataset.build(calls, otlp, labels, checks, dir, parallelism);
    }
}
