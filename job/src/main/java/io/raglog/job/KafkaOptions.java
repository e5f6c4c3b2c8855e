package io.raglog.job;

import io.raglog.config.RaglogOption;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.connector.base.DeliveryGuarantee;

/** raglog.yaml's {@code kafka} section; it fills {@link KafkaConnection} and {@link Topics}. */
public final class KafkaOptions {

    public static final RaglogOption<String> BOOTSTRAP = RaglogOption.of(ConfigOptions.key("kafka.bootstrap")
            .stringType().defaultValue("localhost:9092")
            .withDescription("The Kafka bootstrap servers."));
    public static final RaglogOption<String> GROUP_ID = RaglogOption.of(ConfigOptions.key("kafka.group_id")
            .stringType().defaultValue("raglog")
            .withDescription("The consumer group of the job's sources."));
    public static final RaglogOption<Boolean> EXACTLY_ONCE = RaglogOption.of(ConfigOptions.key("kafka.exactly_once")
            .booleanType().defaultValue(true)
            .withDescription("Write the debugging queue and verdicts in Kafka transactions (false: at-least-once)."));
    public static final RaglogOption<String> CALLS = topic("calls", Topics.DEFAULTS.calls(),
            "CallEvents from the proxy.");
    public static final RaglogOption<String> OTLP = topic("otlp", Topics.DEFAULTS.otlp(),
            "The OTel Collector's kafka exporter (otlp_proto or otlp_json).");
    public static final RaglogOption<String> RUNS = topic("runs", Topics.DEFAULTS.runs(), "Assembled runs.");
    public static final RaglogOption<String> DEAD_LETTERS = topic("dead_letters", Topics.DEFAULTS.deadLetters(),
            "Dead letters: input that could not be read, late calls.");
    public static final RaglogOption<String> VERDICTS = topic("verdicts", Topics.DEFAULTS.verdicts(),
            "Every verdict.");
    public static final RaglogOption<String> FAULTS = topic("faults", Topics.DEFAULTS.faults(),
            "The debugging queue: flagged runs and knowledge gaps only.");
    public static final RaglogOption<String> FAULT_RATES = topic("fault_rates", Topics.DEFAULTS.faultRates(),
            "Fault rates per pipeline and stage.");
    public static final RaglogOption<String> DRIFT = topic("drift", Topics.DEFAULTS.drift(),
            "Embedding model changes, retrieval score shifts and index/query model mismatches.");
    public static final RaglogOption<String> EVALUATIONS = topic("evaluations", Topics.DEFAULTS.evaluations(),
            "Every verdict as OpenTelemetry GenAI evaluation events (gen_ai.evaluation.result), OTLP logs in "
                    + "protobuf: an OTel Collector's kafka receiver reads it with encoding otlp_proto.");
    public static final RaglogOption<String> FEEDBACK = topic("feedback", Topics.DEFAULTS.feedback(),
            "User feedback in (raglog.feedback/v1): thumbs, scores, comments, corrections, re-asks.");
    public static final RaglogOption<String> RUN_FEEDBACK = topic("run_feedback", Topics.DEFAULTS.runFeedback(),
            "Each feedback record joined with its run's verdict, or no_verdict (raglog.run-feedback/v1).");
    public static final RaglogOption<String> THRESHOLDS = topic("thresholds", Topics.DEFAULTS.thresholds(),
            "Per-pipeline threshold overrides (raglog.thresholds/v1, keyed by pipeline; create it compacted), read "
                    + "from the start and applied to the next runs of each pipeline; `raglog thresholds --publish` "
                    + "writes it.");
    public static final RaglogOption<Map<String, String>> PROPERTIES = RaglogOption.of(
            ConfigOptions.key("kafka.properties").mapType().defaultValue(Map.of())
                    .withDescription("Passed to every Kafka client (security.protocol: SASL_SSL, ...); the sinks "
                            + "batch (linger.ms 20, batch.size 262144) unless set here."));

    public static final List<RaglogOption<?>> ALL = List.of(BOOTSTRAP, GROUP_ID, EXACTLY_ONCE, CALLS, OTLP, RUNS,
            DEAD_LETTERS, VERDICTS, FAULTS, FAULT_RATES, DRIFT, EVALUATIONS, FEEDBACK, RUN_FEEDBACK, THRESHOLDS,
            PROPERTIES);

    private KafkaOptions() {}

    private static RaglogOption<String> topic(String name, String defaultTopic, String description) {
        ConfigOption<String> option = ConfigOptions.key("kafka.topics." + name).stringType().defaultValue(defaultTopic)
                .withDescription(description);
        return RaglogOption.of(option);
    }

    public static Topics topics(ReadableConfig c) {
        return new Topics(CALLS.get(c), OTLP.get(c), RUNS.get(c), DEAD_LETTERS.get(c), VERDICTS.get(c), FAULTS.get(c),
                FAULT_RATES.get(c), DRIFT.get(c), EVALUATIONS.get(c), FEEDBACK.get(c), RUN_FEEDBACK.get(c),
                THRESHOLDS.get(c));
    }

    /** The production connection: unbounded sources, the configured delivery guarantee and client properties. */
    public static KafkaConnection connection(ReadableConfig c) {
        Properties properties = new Properties();
        properties.putAll(PROPERTIES.get(c));
        return new KafkaConnection(BOOTSTRAP.get(c), topics(c), GROUP_ID.get(c), false,
                EXACTLY_ONCE.get(c) ? DeliveryGuarantee.EXACTLY_ONCE : DeliveryGuarantee.AT_LEAST_ONCE, properties);
    }
}
