package io.raglog.cli;

import io.raglog.job.RaglogConfig;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** The embedded default: a real broker and local Flink in this process, simulated traffic, readable output. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Run raglog end to end on its embedded default: in-process Kafka, local Flink, sample traffic.")
public final class DemoCommand implements Callable<Integer> {

    @Option(names = "--runs", defaultValue = "200", description = "Simulated runs (default: ${DEFAULT-VALUE}).")
    int runs;

    @Option(names = "--seed", defaultValue = "7", description = "Simulation seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--elasticsearch",
            description = "Also start a local Elasticsearch node and index the flagged runs and fault rates.")
    boolean elasticsearch;

    @Option(names = "--config", paramLabel = "FILE",
            description = "raglog.yaml whose checks, LLM, mapping, assembly, sampling and bundle settings the demo's "
                    + "job uses (environment variables override it, as for run); its Kafka, Elasticsearch and Flink "
                    + "sections are replaced by the demo's own.")
    Path config;

    @Override
    public Integer call() throws Exception {
        return new Demo(runs, seed, elasticsearch, RaglogConfig.load(config, System.getenv()).jobSettings())
                .run(System.out);
    }
}
