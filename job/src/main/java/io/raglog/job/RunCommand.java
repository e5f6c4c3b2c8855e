package io.raglog.job;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The production job: Kafka in, the debugging queue, verdicts, fault rates (and Elasticsearch) out, RocksDB state
 * with incremental checkpoints, a restart strategy, stable operator uids so savepoints carry over upgrades.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run the raglog job against Kafka (on a Flink cluster, or locally for a trial).",
            "Every raglog.yaml key has an environment variable that overrides it: RAGLOG_ + the key in upper case,",
            "dots as underscores (llm.provider: RAGLOG_LLM_PROVIDER), except RAGLOG_ES_HOSTS, RAGLOG_ES_ENABLED,",
            "RAGLOG_SAMPLING_RATE, RAGLOG_PARALLELISM, RAGLOG_CHECKPOINT_DIR, RAGLOG_VECTOR_CHECKS,",
            "RAGLOG_EMBEDDING_CACHE_ENTRIES, RAGLOG_EMBEDDING_THREADS; --print-config lists them all."})
public final class RunCommand implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE", description = "raglog.yaml (default: built-in defaults).")
    Path config;

    @Option(names = "--print-config",
            description = "Print every setting's effective value and where it came from (secrets masked), and exit.")
    boolean printConfig;

    @Override
    public Integer call() throws Exception {
        RaglogConfig cfg = RaglogConfig.load(config, System.getenv());
        if (printConfig) {
            System.out.println(cfg.describe());
            return 0;
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(
                JobOptions.flinkConfiguration(cfg.configuration()));
        env.setParallelism(cfg.parallelism());
        JobSettings settings = cfg.jobSettings();
        KafkaConnection kafka = cfg.kafka();
        RaglogPipeline.Sinks sinks = kafka.sinks();
        if (cfg.elasticsearchEnabled()) {
            sinks = sinks.and(ElasticsearchOutputs.installed(cfg.configuration(), System.getenv()));
        }
        kafka.createThresholdsTopicIfMissing();
        RaglogPipeline.wire(kafka.sources(env, settings), sinks, settings);
        env.execute("raglog");
        return 0;
    }
}
