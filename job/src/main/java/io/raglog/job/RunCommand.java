package io.raglog.job;

import io.raglog.assemble.AssemblySettings;
import io.raglog.checkstage.ChecksSettings;
import io.raglog.monitor.SamplingPolicy;
import io.raglog.score.flink.BundleLocation;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The production job: Kafka in, the debugging queue, verdicts, fault rates (and Elasticsearch) out, RocksDB state
 * with incremental checkpoints, a restart strategy, stable operator uids so savepoints carry over upgrades.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Run the raglog job against Kafka (on a Flink cluster, or locally for a trial).",
            "Environment overrides: RAGLOG_KAFKA_BOOTSTRAP, RAGLOG_KAFKA_GROUP_ID, RAGLOG_ES_HOSTS, RAGLOG_ES_ENABLED,",
            "RAGLOG_SAMPLING_RATE, RAGLOG_BUNDLE, RAGLOG_PARALLELISM, RAGLOG_CHECKPOINT_DIR, RAGLOG_LLM_*,",
            "RAGLOG_VECTOR_CHECKS, RAGLOG_EMBEDDING_CACHE_ENTRIES, RAGLOG_EMBEDDING_THREADS."})
public final class RunCommand implements Callable<Integer> {

    @Option(names = "--config", paramLabel = "FILE", description = "raglog.yaml (default: built-in defaults).")
    Path config;

    @Option(names = "--print-config", description = "Print the effective configuration (no secrets) and exit.")
    boolean printConfig;

    @Override
    public Integer call() throws Exception {
        RaglogConfig cfg = RaglogConfig.load(config, System.getenv());
        if (printConfig) {
            System.out.println(describe(cfg));
            return 0;
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(flinkConfiguration(cfg));
        env.setParallelism(cfg.flink().parallelism());
        JobSettings settings = jobSettings(cfg, System.getenv());
        KafkaConnection kafka = connection(cfg);
        RaglogPipeline.Sinks sinks = kafka.sinks();
        if (cfg.elasticsearch().enabled()) {
            sinks = sinks.and(ElasticsearchOutputs.installed(
                    ElasticsearchOutputs.connection(cfg.elasticsearch(), System.getenv()),
                    cfg.elasticsearch().faultsIndex(), cfg.elasticsearch().faultRatesIndex()));
        }
        RaglogPipeline.wire(kafka.sources(env, settings.topology()), sinks, settings);
        env.execute("raglog");
        return 0;
    }

    static KafkaConnection connection(RaglogConfig cfg) {
        return new KafkaConnection(cfg.kafka().bootstrap(), cfg.kafka().topics(), cfg.kafka().groupId(), false,
                cfg.kafka().exactlyOnce() ? DeliveryGuarantee.EXACTLY_ONCE : DeliveryGuarantee.AT_LEAST_ONCE,
                cfg.kafka().clientProperties());
    }

    static JobSettings jobSettings(RaglogConfig cfg, Map<String, String> env) {
        AssemblySettings a = AssemblySettings.DEFAULTS;
        RaglogConfig.Assembly c = cfg.assembly();
        Duration timeout = or(c.runTimeout(), a.runTimeout());
        Duration wait = or(c.generatorWait(), a.generatorWait());
        AssemblySettings assembly = new AssemblySettings(or(c.grace(), a.grace()), timeout,
                timeout.compareTo(a.maxRunDuration()) > 0 ? timeout : a.maxRunDuration(), a.closedRunMemory(),
                a.stateTtl(), wait.isNegative() ? null : wait,
                wait.isNegative() ? null : or(c.generatorWaitMaxLag(), a.generatorWaitMaxLag()));
        TopologySettings t = TopologySettings.DEFAULTS;
        ChecksSettings checks = ChecksSettings.fromEnv(cfg.checksEnvironment(env));
        TopologySettings topology = new TopologySettings(or(c.maxOutOfOrder(), t.maxOutOfOrder()),
                or(c.sourceIdleness(), t.sourceIdleness()), assembly, checks.llm());
        BundleLocation bundle = cfg.bundle() == null ? BundleLocation.classpath(DefaultBundle.RESOURCE)
                : BundleLocation.directory(Path.of(cfg.bundle()));
        return new JobSettings(topology, checks, bundle,
                new SamplingPolicy(cfg.sampling().defaultRate(), cfg.sampling().pipelines()),
                cfg.faultRates().window());
    }

    /** RocksDB with incremental checkpoints; exactly-once sinks commit on checkpoints, so they must complete. */
    static Configuration flinkConfiguration(RaglogConfig cfg) {
        Configuration conf = new Configuration();
        conf.setString("state.backend.type", "rocksdb");
        conf.setString("execution.checkpointing.incremental", "true");
        conf.setString("execution.checkpointing.interval", cfg.flink().checkpointInterval().toMillis() + " ms");
        conf.setString("execution.checkpointing.mode", "EXACTLY_ONCE");
        if (cfg.flink().checkpointDir() != null) {
            conf.setString("execution.checkpointing.dir", cfg.flink().checkpointDir());
        }
        conf.setString("restart-strategy.type", "exponential-delay");
        // raglog.* counters, gauges (fault rates per pipeline x stage) and histograms for Prometheus to scrape
        conf.setString("metrics.reporter.prom.factory.class",
                "org.apache.flink.metrics.prometheus.PrometheusReporterFactory");
        conf.setString("metrics.reporter.prom.port", String.valueOf(cfg.flink().prometheusPort()));
        return conf;
    }

    private static String describe(RaglogConfig cfg) {
        return String.join("\n",
                "kafka: " + cfg.kafka().bootstrap() + " group " + cfg.kafka().groupId() + " topics "
                        + cfg.kafka().topics() + (cfg.kafka().exactlyOnce() ? " (exactly-once)" : " (at-least-once)")
                        + " client properties " + cfg.kafka().properties().keySet(),
                "elasticsearch: " + (cfg.elasticsearch().enabled() ? cfg.elasticsearch().hosts() + " indices "
                        + cfg.elasticsearch().faultsIndex() + ", " + cfg.elasticsearch().faultRatesIndex() : "off"),
                "llm judge: " + ChecksSettings.fromEnv(cfg.checksEnvironment(System.getenv())).llm().judgeId() + ", mode "
                        + ChecksSettings.fromEnv(cfg.checksEnvironment(System.getenv())).llm().mode().id(),
                "sampling: default " + cfg.sampling().defaultRate() + ", per pipeline " + cfg.sampling().pipelines(),
                "fault-rate window: " + cfg.faultRates().window(),
                "bundle: " + (cfg.bundle() == null ? "the shipped default" : cfg.bundle()),
                "flink: parallelism " + cfg.flink().parallelism() + ", checkpoints every "
                        + cfg.flink().checkpointInterval() + " to " + cfg.flink().checkpointDir());
    }

    private static <T> T or(T value, T fallback) {
        return value == null ? fallback : value;
    }
}
