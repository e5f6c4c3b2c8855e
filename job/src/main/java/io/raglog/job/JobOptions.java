package io.raglog.job;

import io.raglog.config.RaglogOption;
import io.raglog.feedback.FeedbackSettings;
import io.raglog.reask.ReAskSettings;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MetricOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.core.execution.CheckpointingMode;

/**
 * raglog.yaml's {@code flink}, {@code fault_rates} and {@code feedback} sections and {@code bundle}; they fill
 * {@link JobSettings}.
 */
public final class JobOptions {

    public static final RaglogOption<Integer> PARALLELISM = RaglogOption.of(ConfigOptions.key("flink.parallelism")
            .intType().defaultValue(2)
            .withDescription("Every operator's parallelism."))
            .withVariable("RAGLOG_PARALLELISM");
    public static final RaglogOption<Duration> CHECKPOINT_INTERVAL = RaglogOption.of(
            ConfigOptions.key("flink.checkpoint_interval").durationType().defaultValue(Duration.ofSeconds(30))
                    .withDescription("Checkpoints, and with exactly-once the Kafka transactions' commits."));
    public static final RaglogOption<String> CHECKPOINT_DIR = RaglogOption.of(ConfigOptions.key("flink.checkpoint_dir")
            .stringType().noDefaultValue()
            .withDescription("Durable storage for checkpoints (s3://, hdfs://, file://); RocksDB keeps state "
                    + "locally."))
            .withVariable("RAGLOG_CHECKPOINT_DIR");
    public static final RaglogOption<Integer> PROMETHEUS_PORT = RaglogOption.of(
            ConfigOptions.key("flink.prometheus_port").intType().defaultValue(9249)
                    .withDescription("Metrics (raglog.* groups) for Prometheus when run outside a cluster."));
    public static final RaglogOption<Duration> BUFFER_TIMEOUT = RaglogOption.of(
            ConfigOptions.key("flink.buffer_timeout").durationType()
                    .defaultValue(TopologySettings.DEFAULT_BUFFER_TIMEOUT)
                    .withDescription("The longest a record waits in a network buffer between two tasks (Flink's "
                            + "execution.buffer-timeout, set by the job): each of the three edges a generator call "
                            + "crosses on its way to a verdict adds up to this; 0 sends every record at once, at "
                            + "some CPU."));
    public static final RaglogOption<Duration> FAULT_RATE_WINDOW = RaglogOption.of(
            ConfigOptions.key("fault_rates.window").durationType().defaultValue(JobSettings.DEFAULT_FAULT_RATE_WINDOW)
                    .withDescription("The event-time tumbling window fault rates are counted in."));
    public static final RaglogOption<Boolean> FEEDBACK_ENABLED = RaglogOption.of(
            ConfigOptions.key("feedback.enabled").booleanType().defaultValue(true)
                    .withDescription("Join user feedback (kafka.topics.feedback) to verdicts; false: the job reads "
                            + "no feedback topic and writes no run-feedback."));
    public static final RaglogOption<Duration> FEEDBACK_WAIT_FOR_VERDICT = RaglogOption.of(
            ConfigOptions.key("feedback.wait_for_verdict").durationType()
                    .defaultValue(FeedbackSettings.DEFAULTS.waitForVerdict())
                    .withDescription("How long feedback waits, in event time, for its run's verdict before it "
                            + "leaves as no_verdict."));
    public static final RaglogOption<Duration> FEEDBACK_KEEP_VERDICT = RaglogOption.of(
            ConfigOptions.key("feedback.keep_verdict").durationType()
                    .defaultValue(FeedbackSettings.DEFAULTS.keepVerdict())
                    .withDescription("How long after its run a verdict waits, in event time, for feedback; the "
                            + "join's state holds a pipeline's verdicts of this long."));
    public static final RaglogOption<Duration> FEEDBACK_QUESTION_WINDOW = RaglogOption.of(
            ConfigOptions.key("feedback.question_window").durationType()
                    .defaultValue(FeedbackSettings.DEFAULTS.questionWindow())
                    .withDescription("Feedback that names only its question joins the pipeline's run that asked it "
                            + "nearest in time, at most this far apart."));
    public static final RaglogOption<Boolean> FEEDBACK_RE_ASKS = RaglogOption.of(
            ConfigOptions.key("feedback.re_asks").booleanType().defaultValue(true)
                    .withDescription("Find re-asks (a user asking a paraphrase of a question just answered) and join "
                            + "each as negative feedback on the run re-asked; needs feedback.enabled. Compares"
                            + " the questions' words (no embedding model by default)."));
    public static final RaglogOption<Duration> FEEDBACK_RE_ASK_WINDOW = RaglogOption.of(
            ConfigOptions.key("feedback.re_ask_window").durationType()
                    .defaultValue(ReAskSettings.DEFAULT_SESSION_WINDOW)
                    .withDescription("How long a session's questions are compared with its next ones (the run's "
                            + "session: the proxy's session header, or the span attribute session.id)."));
    public static final RaglogOption<Duration> FEEDBACK_RE_ASK_WINDOW_WITHOUT_SESSION = RaglogOption.of(
            ConfigOptions.key("feedback.re_ask_window_without_session").durationType()
                    .defaultValue(ReAskSettings.DEFAULT_ANONYMOUS_WINDOW)
                    .withDescription("The same for runs without a session, compared across the pipeline's "
                            + "unsessioned users (two users asking one popular question look alike); 0 s: not "
                            + "compared."));
    public static final RaglogOption<String> BUNDLE = RaglogOption.of(ConfigOptions.key("bundle")
            .stringType().noDefaultValue()
            .withDescription("A model bundle directory; unset: the bundle shipped in the job."));

    public static final List<RaglogOption<?>> ALL = List.of(PARALLELISM, CHECKPOINT_INTERVAL, CHECKPOINT_DIR,
            PROMETHEUS_PORT, BUFFER_TIMEOUT, FAULT_RATE_WINDOW, FEEDBACK_ENABLED, FEEDBACK_WAIT_FOR_VERDICT,
            FEEDBACK_KEEP_VERDICT, FEEDBACK_QUESTION_WINDOW, FEEDBACK_RE_ASKS, FEEDBACK_RE_ASK_WINDOW,
            FEEDBACK_RE_ASK_WINDOW_WITHOUT_SESSION, BUNDLE);

    private static final ConfigOption<String> PROMETHEUS_REPORTER_PORT = ConfigOptions.key("port").stringType()
            .noDefaultValue();

    private JobOptions() {}

    /**
     * RocksDB with incremental, exactly-once checkpoints: exactly-once sinks commit on checkpoints, so they must
     * complete. What {@code run} deploys and the failure drills reproduce.
     *
     * @param checkpointDir null to leave checkpoints where Flink keeps them
     */
    public static Configuration checkpointed(Duration interval, String checkpointDir) {
        Configuration conf = new Configuration();
        conf.set(StateBackendOptions.STATE_BACKEND, "rocksdb");
        conf.set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true);
        conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, interval);
        conf.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.EXACTLY_ONCE);
        if (checkpointDir != null) {
            conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpointDir);
        }
        return conf;
    }

    /** The production job's Flink configuration: checkpoints, a restart strategy, the Prometheus reporter. */
    public static Configuration flinkConfiguration(ReadableConfig c) {
        Configuration conf = checkpointed(CHECKPOINT_INTERVAL.get(c), CHECKPOINT_DIR.get(c));
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "exponential-delay");
        // raglog.* counters, gauges (fault rates per pipeline x stage) and histograms for Prometheus to scrape
        Configuration prometheus = MetricOptions.forReporter(conf, "prom");
        prometheus.set(MetricOptions.REPORTER_FACTORY_CLASS,
                "org.apache.flink.metrics.prometheus.PrometheusReporterFactory");
        prometheus.set(PROMETHEUS_REPORTER_PORT, String.valueOf(PROMETHEUS_PORT.get(c)));
        return conf;
    }
}
