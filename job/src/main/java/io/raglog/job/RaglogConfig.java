package io.raglog.job;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.raglog.checkstage.ChecksSettings;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * {@code raglog.yaml}: the production job's configuration. Every section has defaults, so an empty file is a valid
 * config; environment variables override the settings operators change per deployment (listed on {@link #ENV}).
 * Secrets are never in the file: it names the environment variable or file that holds them.
 */
public record RaglogConfig(Kafka kafka, Elasticsearch elasticsearch, Llm llm, Sampling sampling, Assembly assembly,
        FaultRates faultRates, Flink flink, String bundle) {

    /** Environment overrides, documented here and in {@code raglog --help run}. */
    public static final List<String> ENV = List.of("RAGLOG_KAFKA_BOOTSTRAP", "RAGLOG_KAFKA_GROUP_ID",
            "RAGLOG_ES_HOSTS", "RAGLOG_ES_ENABLED", "RAGLOG_SAMPLING_RATE", "RAGLOG_BUNDLE", "RAGLOG_PARALLELISM",
            "RAGLOG_CHECKPOINT_DIR", "RAGLOG_LLM_* (provider, base URL, model, key or key file, mode, capacity, "
                    + "timeout, retries, requests per second)");

    public record Kafka(String bootstrap, String groupId, Topics topics, Map<String, String> properties,
            boolean exactlyOnce) {
        public Kafka {
            bootstrap = bootstrap == null ? "localhost:9092" : bootstrap;
            groupId = groupId == null ? "raglog" : groupId;
            topics = topics == null ? Topics.DEFAULTS : topics;
            properties = properties == null ? Map.of() : Map.copyOf(properties);
        }

        Properties clientProperties() {
            Properties p = new Properties();
            p.putAll(properties);
            return p;
        }
    }

    /**
     * @param apiKeyEnv the environment variable holding an API key ({@code Authorization: ApiKey ...})
     * @param passwordEnv with {@code username}: the environment variable holding the basic-auth password
     * @param caCertificate a PEM file to trust for https, else the JVM's trust store
     */
    public record Elasticsearch(boolean enabled, List<String> hosts, String faultsIndex, String faultRatesIndex,
            String apiKeyEnv, String username, String passwordEnv, String caCertificate) {
        public Elasticsearch {
            hosts = hosts == null || hosts.isEmpty() ? List.of("http://localhost:9200") : List.copyOf(hosts);
            faultsIndex = faultsIndex == null ? "raglog-faults" : faultsIndex;
            faultRatesIndex = faultRatesIndex == null ? "raglog-fault-rates" : faultRatesIndex;
        }
    }

    /** Mirrors the {@code RAGLOG_LLM_*} variables; the environment wins over the file. */
    /** @param mode default, economy or tiered ({@code RAGLOG_LLM_MODE}); {@code economy: true} is the older form */
    public record Llm(String provider, String baseUrl, String model, String apiKeyFile, String mode, Boolean economy,
            Integer capacity, Long timeoutMs, Integer retries, Double requestsPerSecond) {

        Map<String, String> asEnvironment() {
            Map<String, String> env = new HashMap<>();
            put(env, "RAGLOG_LLM_PROVIDER", provider);
            put(env, "RAGLOG_LLM_BASE_URL", baseUrl);
            put(env, "RAGLOG_LLM_MODEL", model);
            put(env, "RAGLOG_LLM_API_KEY_FILE", apiKeyFile);
            put(env, "RAGLOG_LLM_MODE", mode);
            put(env, "RAGLOG_LLM_ECONOMY", economy);
            put(env, "RAGLOG_LLM_CAPACITY", capacity);
            put(env, "RAGLOG_LLM_TIMEOUT_MS", timeoutMs);
            put(env, "RAGLOG_LLM_RETRIES", retries);
            put(env, "RAGLOG_LLM_REQUESTS_PER_SECOND", requestsPerSecond);
            return env;
        }

        private static void put(Map<String, String> env, String key, Object value) {
            if (value != null) {
                env.put(key, value.toString());
            }
        }
    }

    public record Sampling(Double defaultRate, Map<String, Double> pipelines) {
        public Sampling {
            defaultRate = defaultRate == null ? 1.0 : defaultRate;
            pipelines = pipelines == null ? Map.of() : Map.copyOf(pipelines);
        }
    }

    /**
     * @param generatorWait how long after a live generator call arrives its run closes (processing time); PT0S closes
     *     at once, and a negative value turns the prompt path off (event time only)
     * @param generatorWaitMaxLag only generator calls whose record is at most this old on arrival take the prompt path
     */
    public record Assembly(Duration grace, Duration runTimeout, Duration maxOutOfOrder, Duration sourceIdleness,
            Duration generatorWait, Duration generatorWaitMaxLag) {}

    public record FaultRates(Duration window) {
        public FaultRates {
            window = window == null ? JobSettings.DEFAULT_FAULT_RATE_WINDOW : window;
        }
    }

    /**
     * @param checkpointDir durable storage for checkpoints (s3://, hdfs://, file://); RocksDB keeps state locally
     */
    public record Flink(Integer parallelism, Duration checkpointInterval, String checkpointDir,
            Integer prometheusPort) {
        public Flink {
            parallelism = parallelism == null ? 2 : parallelism;
            checkpointInterval = checkpointInterval == null ? Duration.ofSeconds(30) : checkpointInterval;
            prometheusPort = prometheusPort == null ? 9249 : prometheusPort;
        }
    }

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .registerModule(new com.fasterxml.jackson.datatype.jsr310.JavaTimeModule())
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES); // a typo in a key must not pass silently

    public RaglogConfig {
        kafka = kafka == null ? new Kafka(null, null, null, null, true) : kafka;
        elasticsearch = elasticsearch == null
                ? new Elasticsearch(false, null, null, null, null, null, null, null) : elasticsearch;
        llm = llm == null ? new Llm(null, null, null, null, null, null, null, null, null, null) : llm;
        sampling = sampling == null ? new Sampling(null, null) : sampling;
        assembly = assembly == null ? new Assembly(null, null, null, null, null, null) : assembly;
        faultRates = faultRates == null ? new FaultRates(null) : faultRates;
        flink = flink == null ? new Flink(null, null, null, null) : flink;
    }

    public static RaglogConfig load(Path file, Map<String, String> env) throws IOException {
        RaglogConfig fromFile = file == null ? YAML.readValue("{}", RaglogConfig.class)
                : YAML.readValue(file.toFile(), RaglogConfig.class);
        return fromFile.withEnvironment(env);
    }

    static RaglogConfig parse(String yaml, Map<String, String> env) throws IOException {
        return YAML.readValue(yaml.isBlank() ? "{}" : yaml, RaglogConfig.class).withEnvironment(env);
    }

    RaglogConfig withEnvironment(Map<String, String> env) {
        Kafka k = new Kafka(env.getOrDefault("RAGLOG_KAFKA_BOOTSTRAP", kafka.bootstrap()),
                env.getOrDefault("RAGLOG_KAFKA_GROUP_ID", kafka.groupId()), kafka.topics(), kafka.properties(),
                kafka.exactlyOnce());
        Elasticsearch e = elasticsearch;
        if (env.containsKey("RAGLOG_ES_HOSTS") || env.containsKey("RAGLOG_ES_ENABLED")) {
            List<String> hosts = env.containsKey("RAGLOG_ES_HOSTS")
                    ? new ArrayList<>(List.of(env.get("RAGLOG_ES_HOSTS").split(","))) : e.hosts();
            boolean enabled = env.containsKey("RAGLOG_ES_ENABLED") ? Boolean.parseBoolean(env.get("RAGLOG_ES_ENABLED"))
                    : true;
            e = new Elasticsearch(enabled, hosts, e.faultsIndex(), e.faultRatesIndex(), e.apiKeyEnv(), e.username(),
                    e.passwordEnv(), e.caCertificate());
        }
        Sampling s = env.containsKey("RAGLOG_SAMPLING_RATE")
                ? new Sampling(Double.parseDouble(env.get("RAGLOG_SAMPLING_RATE")), sampling.pipelines()) : sampling;
        Flink f = new Flink(env.containsKey("RAGLOG_PARALLELISM") ? Integer.valueOf(env.get("RAGLOG_PARALLELISM"))
                : flink.parallelism(), flink.checkpointInterval(),
                env.getOrDefault("RAGLOG_CHECKPOINT_DIR", flink.checkpointDir()), flink.prometheusPort());
        return new RaglogConfig(k, e, llm, s, assembly, faultRates, f, env.getOrDefault("RAGLOG_BUNDLE", bundle));
    }

    /**
     * What the checks' settings are read from: the file's LLM section, overridden by any {@code RAGLOG_LLM_*}
     * variable, and the checks' own variables (the embedding model's cache and threads, the vector checks' switch),
     * which have no key in the file. Anything else in the environment is not the checks'.
     */
    Map<String, String> checksEnvironment(Map<String, String> env) {
        Map<String, String> merged = llm.asEnvironment();
        env.forEach((k, v) -> {
            if (k.startsWith("RAGLOG_LLM_") || CHECKS_VARIABLES.contains(k)) {
                merged.put(k, v);
            }
        });
        return merged;
    }

    private static final List<String> CHECKS_VARIABLES = List.of(ChecksSettings.EMBEDDING_CACHE,
            ChecksSettings.EMBEDDING_THREADS, ChecksSettings.VECTOR_CHECKS);
}
