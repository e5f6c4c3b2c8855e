package io.raglog.bench.e2e;

import io.raglog.checks.SharedEmbedder;
import io.raglog.checkstage.ChecksSettings;
import io.raglog.cli.io.EmbeddedKafka;
import io.raglog.job.JobSettings;
import io.raglog.job.KafkaConnection;
import io.raglog.job.Topics;
import io.raglog.llm.LlmMode;
import io.raglog.llm.LlmSettings;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** Runs one variant of the whole job, or the passthrough, over the shared input topics, each to its own outputs. */
final class JobRuns {

    /** Published list prices of a small hosted model (USD per million tokens), stated with every cost figure. */
    static final double PRICE_INPUT_PER_MTOK = 0.15;
    static final double PRICE_OUTPUT_PER_MTOK = 0.60;

    private final EmbeddedKafka kafka;
    private final Topics input;

    JobRuns(EmbeddedKafka kafka, Topics input) {
        this.kafka = kafka;
        this.input = input;
    }

    String bootstrap() {
        return kafka.bootstrapServers();
    }

    /** Output topics of one variant, reading the shared inputs. */
    Topics outputs(String variant) throws Exception {
        Topics t = new Topics(input.calls(), input.otlp(), variant + ".runs", variant + ".dlq", variant + ".verdicts",
                variant + ".faults", variant + ".fault-rates");
        kafka.createTopics(java.util.List.of(t.runs(), t.deadLetters(), t.verdicts(), t.faults(), t.faultRates(),
                t.drift(), t.evaluations()), 2);
        return t;
    }

    /**
     * The whole job over the inputs to their current end; returns when it has finished. Every variant starts with an
     * empty passage cache (the JVM's shared one outlives jobs), so that they compare from the same start.
     */
    Topics runJob(String variant, int parallelism, ChecksSettings checks) throws Exception {
        return runJob(variant, parallelism, checks, new Configuration());
    }

    /** The same, on a Flink configuration of its own (a state backend). */
    Topics runJob(String variant, int parallelism, ChecksSettings checks, Configuration conf) throws Exception {
        SharedEmbedder.forgetVectors();
        Topics t = outputs(variant);
        StreamExecutionEnvironment env = environment(parallelism, conf);
        new KafkaConnection(kafka.bootstrapServers(), t, "bench-" + variant, true, DeliveryGuarantee.AT_LEAST_ONCE,
                // the simulator writes no feedback: the job is measured as it runs without a feedback topic
                new Properties()).wire(env, JobSettings.defaults().withChecks(checks).withFeedback(null));
        env.execute("raglog bench " + variant);
        return t;
    }

    /** The topic a passthrough variant writes its copy to. */
    static String passthroughOutput(String variant) {
        return variant + ".out";
    }

    /** @param from the input, or the input several times over ({@link RepeatedInput}) */
    String runPassthrough(String variant, int parallelism, Topics from) throws Exception {
        String out = passthroughOutput(variant);
        kafka.createTopics(java.util.List.of(out), 2);
        StreamExecutionEnvironment env = environment(parallelism);
        Passthrough.wire(env, kafka.bootstrapServers(), from.calls(), from.otlp(), out, "bench-" + variant);
        env.execute("raglog bench " + variant);
        return out;
    }

    static StreamExecutionEnvironment environment(int parallelism) {
        return environment(parallelism, new Configuration());
    }

    static StreamExecutionEnvironment environment(int parallelism, Configuration conf) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        env.setParallelism(parallelism);
        return env;
    }

    /**
     * The checks against the local endpoint.
     *
     * @param vectors false: the vector checks off (the embedding model not loaded)
     */
    static ChecksSettings checks(String baseUrl, int capacity, boolean economy, boolean vectors) {
        return checks(baseUrl, capacity, economy ? LlmMode.ECONOMY : LlmMode.DEFAULT, vectors);
    }

    /** The checks against the local endpoint in an LLM mode (tiered reads the job's bundle's tier gate). */
    static ChecksSettings checks(String baseUrl, int capacity, LlmMode mode, boolean vectors) {
        Map<String, String> env = new HashMap<>();
        env.put(LlmSettings.PROVIDER, "openai");
        env.put(LlmSettings.BASE_URL, baseUrl);
        env.put(LlmSettings.MODEL, "bench-local");
        env.put(LlmSettings.API_KEY, "bench-local-no-key");
        env.put(LlmSettings.CAPACITY, String.valueOf(capacity));
        env.put(LlmSettings.MODE, mode.id());
        env.put(LlmSettings.TIMEOUT_MS, String.valueOf(Duration.ofSeconds(20).toMillis()));
        env.put(LlmSettings.PRICE_INPUT, String.valueOf(PRICE_INPUT_PER_MTOK));
        env.put(LlmSettings.PRICE_OUTPUT, String.valueOf(PRICE_OUTPUT_PER_MTOK));
        env.put(ChecksSettings.VECTOR_CHECKS, String.valueOf(vectors));
        return ChecksSettings.fromEnv(env);
    }
}
