package io.raglog.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.assemble.AssemblySettings;
import io.raglog.calls.mapping.MappingSettings;
import io.raglog.checkstage.ChecksSettings;
import io.raglog.config.RaglogOption;
import io.raglog.llm.LlmMode;
import io.raglog.llm.LlmSettings;
import io.raglog.llm.ProviderKind;
import io.raglog.score.flink.BundleLocation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.junit.jupiter.api.Test;

/**
 * One configuration, read once: defaults, then raglog.yaml, then the environment, for every key family; and what
 * {@code run}, {@code demo} and {@code replay} receive is built from it.
 */
class RaglogConfigTest {

    private static RaglogConfig config(String yaml, Map<String, String> env) throws Exception {
        return RaglogConfig.parse(yaml, env);
    }

    private static JobSettings job(String yaml, Map<String, String> env) throws Exception {
        return config(yaml, env).jobSettings();
    }

    @Test
    void shouldReadTheDocumentedExampleAsTheDefaults() throws Exception {
        Path example = Path.of("..", "raglog.example.yaml");
        assertThat(Files.exists(example)).isTrue();
        RaglogConfig fromExample = RaglogConfig.load(example, Map.of());
        RaglogConfig empty = RaglogConfig.parse("", Map.of());
        for (RaglogOption<?> option : RaglogConfig.OPTIONS) {
            assertThat((Object) option.get(fromExample.configuration())).as(option.key())
                    .isEqualTo(option.get(empty.configuration()));
        }
        assertThat(fromExample.source(KafkaOptions.BOOTSTRAP)).isEqualTo("YAML ../raglog.example.yaml");
        assertThat(empty.source(KafkaOptions.BOOTSTRAP)).isEqualTo(RaglogConfig.DEFAULT);
        assertThat(fromExample.jobSettings()).isEqualTo(empty.jobSettings());
        assertThat(fromExample.kafka().guarantee()).isEqualTo(DeliveryGuarantee.EXACTLY_ONCE);
        assertThat(fromExample.kafka().bounded()).isFalse();
    }

    @Test
    void kafka() throws Exception {
        String yaml = """
                kafka: {bootstrap: "kafka-a:9092", group_id: prod, exactly_once: false,
                        topics: {calls: my.calls}, properties: {security.protocol: SASL_SSL}}
                """;
        KafkaConnection fromFile = config(yaml, Map.of()).kafka();
        assertThat(fromFile.bootstrap()).isEqualTo("kafka-a:9092");
        assertThat(fromFile.groupId()).isEqualTo("prod");
        assertThat(fromFile.guarantee()).isEqualTo(DeliveryGuarantee.AT_LEAST_ONCE);
        assertThat(fromFile.topics().calls()).isEqualTo("my.calls");
        assertThat(fromFile.topics().verdicts()).isEqualTo(Topics.DEFAULTS.verdicts());
        assertThat(fromFile.clientProperties()).containsEntry("security.protocol", "SASL_SSL");

        KafkaConnection overridden = config(yaml, Map.of("RAGLOG_KAFKA_BOOTSTRAP", "kafka-b:9093",
                "RAGLOG_KAFKA_EXACTLY_ONCE", "true", "RAGLOG_KAFKA_TOPICS_FAULTS", "queue",
                "RAGLOG_KAFKA_PROPERTIES", "linger.ms:5")).kafka();
        assertThat(overridden.bootstrap()).isEqualTo("kafka-b:9093");
        assertThat(overridden.groupId()).isEqualTo("prod");
        assertThat(overridden.guarantee()).isEqualTo(DeliveryGuarantee.EXACTLY_ONCE);
        assertThat(overridden.topics().faults()).isEqualTo("queue");
        assertThat(overridden.clientProperties()).containsEntry("linger.ms", "5").doesNotContainKey("security.protocol");
    }

    @Test
    void elasticsearch() throws Exception {
        RaglogConfig fromFile = config("""
                elasticsearch: {enabled: true, hosts: ["https://es1:9200", "https://es2:9200"], faults_index: f}
                """, Map.of());
        assertThat(fromFile.elasticsearchEnabled()).isTrue();
        assertThat(ElasticsearchOutputOptions.HOSTS.get(fromFile.configuration()))
                .containsExactly("https://es1:9200", "https://es2:9200");
        assertThat(ElasticsearchOutputOptions.FAULTS_INDEX.get(fromFile.configuration())).isEqualTo("f");

        // the hosts in the environment turn it on, as documented; RAGLOG_ES_ENABLED says otherwise when set
        RaglogConfig fromEnv = config("elasticsearch: {enabled: false}", Map.of("RAGLOG_ES_HOSTS",
                "https://es3:9200,https://es4:9200"));
        assertThat(fromEnv.elasticsearchEnabled()).isTrue();
        assertThat(ElasticsearchOutputOptions.HOSTS.get(fromEnv.configuration()))
                .containsExactly("https://es3:9200", "https://es4:9200");
        assertThat(fromEnv.source(ElasticsearchOutputOptions.HOSTS)).isEqualTo("RAGLOG_ES_HOSTS");
        assertThat(config("", Map.of("RAGLOG_ES_HOSTS", "https://es3:9200", "RAGLOG_ES_ENABLED", "false"))
                .elasticsearchEnabled()).isFalse();
    }

    @Test
    void llm() throws Exception {
        String yaml = """
                llm: {provider: openai, model: gpt-4o-mini, mode: tiered, capacity: 8, timeout_ms: 5000,
                      requests_per_second: 2.5, price_input_per_mtok: 0.15, price_output_per_mtok: 0.6}
                """;
        LlmSettings fromFile = job(yaml, Map.of()).checks().llm();
        assertThat(fromFile.provider()).isEqualTo(ProviderKind.OPENAI);
        assertThat(fromFile.baseUrl()).isEqualTo("https://api.openai.com/v1");
        assertThat(fromFile.mode()).isEqualTo(LlmMode.TIERED);
        assertThat(fromFile.capacity()).isEqualTo(8);
        assertThat(fromFile.callTimeout()).isEqualTo(Duration.ofSeconds(5));
        assertThat(fromFile.requestsPerSecond()).isEqualTo(2.5);
        assertThat(fromFile.cost(1_000_000, 0)).isEqualTo(0.15);

        JobSettings overridden = job(yaml, Map.of("RAGLOG_LLM_MODEL", "gpt-4.1", "RAGLOG_LLM_CAPACITY", "4",
                "RAGLOG_LLM_BACKOFF_MS", "250", "RAGLOG_LLM_RUN_RETRIES", "0", "RAGLOG_LLM_MAX_OUTPUT_TOKENS", "64",
                "RAGLOG_LLM_API_KEY", "sk-test", "RAGLOG_LLM_MODE", "economy"));
        LlmSettings llm = overridden.checks().llm();
        assertThat(llm.model()).isEqualTo("gpt-4.1");
        assertThat(llm.capacity()).isEqualTo(4);
        assertThat(llm.backoff()).isEqualTo(Duration.ofMillis(250));
        assertThat(llm.runRetries()).isZero();
        assertThat(llm.maxOutputTokens()).isEqualTo(64);
        assertThat(llm.apiKey().reveal()).isEqualTo("sk-test");
        assertThat(llm.economy()).isTrue();
        assertThat(overridden.topology().endpointMapping()).isEqualTo(llm); // unknown endpoints ask the same LLM

        // the older switch, from the file or the environment
        assertThat(job("llm: {economy: true}", Map.of()).checks().llm().economy()).isTrue();
        assertThat(job("llm: {mode: default}", Map.of("RAGLOG_LLM_ECONOMY", "true")).checks().llm().economy())
                .isTrue();
    }

    @Test
    void checks() throws Exception {
        ChecksSettings fromFile = job("checks: {vector_checks: false, embedding_threads: 3, "
                + "embedding_cache_entries: 700}", Map.of()).checks();
        assertThat(fromFile.vectorChecks()).isFalse();
        assertThat(fromFile.embeddingThreads()).isEqualTo(3);
        assertThat(fromFile.embeddingCacheEntries()).isEqualTo(700);

        // the variables with their older names, over the file; unrelated variables are not read
        ChecksSettings fromEnv = job("checks: {embedding_threads: 3}", Map.of("RAGLOG_EMBEDDING_THREADS", "2",
                "RAGLOG_EMBEDDING_CACHE_ENTRIES", "500", "RAGLOG_VECTOR_CHECKS", "false", "RAGLOG_UNRELATED", "x"))
                .checks();
        assertThat(fromEnv.embeddingThreads()).isEqualTo(2);
        assertThat(fromEnv.embeddingCacheEntries()).isEqualTo(500);
        assertThat(fromEnv.vectorChecks()).isFalse();
        assertThat(job("", Map.of()).checks()).isEqualTo(ChecksSettings.defaults());
    }

    @Test
    void mapping() throws Exception {
        MappingSettings fromFile = job("mapping: {max_attempts: 5, sample_max_chars: 4000}", Map.of())
                .topology().mapping();
        assertThat(fromFile.maxAttempts()).isEqualTo(5);
        assertThat(fromFile.sampleMaxChars()).isEqualTo(4000);

        MappingSettings fromEnv = job("mapping: {max_attempts: 5}", Map.of("RAGLOG_MAPPING_MAX_ATTEMPTS", "7",
                "RAGLOG_MAPPING_RETRY_BACKOFF_MS", "1000", "RAGLOG_MAPPING_MAX_RETRY_BACKOFF_MS", "9000",
                "RAGLOG_MAPPING_MAX_BUFFERED_CALLS", "10", "RAGLOG_MAPPING_PROPOSAL_TIMEOUT_MS", "3000",
                "RAGLOG_MAPPING_SAMPLE_MAX_CHARS", "2000")).topology().mapping();
        assertThat(fromEnv).isEqualTo(new MappingSettings(7, Duration.ofSeconds(1), Duration.ofSeconds(9), 10,
                Duration.ofSeconds(3), 2000));
        assertThat(job("", Map.of()).topology().mapping()).isEqualTo(MappingSettings.DEFAULTS);
    }

    @Test
    void sampling() throws Exception {
        JobSettings fromFile = job("sampling: {default_rate: 0.5, pipelines: {support-bot: 0.1}}", Map.of());
        assertThat(fromFile.sampling().rate("anything")).isEqualTo(0.5);
        assertThat(fromFile.sampling().rate("support-bot")).isEqualTo(0.1);

        JobSettings fromEnv = job("sampling: {default_rate: 0.5, pipelines: {support-bot: 0.1}}",
                Map.of("RAGLOG_SAMPLING_RATE", "0.25", "RAGLOG_SAMPLING_PIPELINES", "chatty:0.05,quiet:1"));
        assertThat(fromEnv.sampling().rate("anything")).isEqualTo(0.25);
        assertThat(fromEnv.sampling().pipelineRates()).containsOnly(Map.entry("chatty", 0.05), Map.entry("quiet", 1.0));
    }

    @Test
    void assembly() throws Exception {
        JobSettings settings = job("""
                assembly: {grace: PT3S, run_timeout: PT5M, max_out_of_order: PT7S, source_idleness: 1 min,
                           generator_wait: PT0.5S, generator_wait_max_lag: PT30S}
                """, Map.of());
        AssemblySettings a = settings.topology().assembly();
        assertThat(a.grace()).isEqualTo(Duration.ofSeconds(3));
        assertThat(a.runTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(a.maxRunDuration()).isEqualTo(Duration.ofMinutes(5));
        assertThat(a.generatorWait()).isEqualTo(Duration.ofMillis(500));
        assertThat(a.generatorWaitMaxLag()).isEqualTo(Duration.ofSeconds(30));
        assertThat(settings.topology().maxOutOfOrder()).isEqualTo(Duration.ofSeconds(7));
        assertThat(settings.topology().sourceIdleness()).isEqualTo(Duration.ofMinutes(1));
        assertThat(job("", Map.of()).topology().assembly()).isEqualTo(AssemblySettings.DEFAULTS);

        JobSettings fromEnv = job("assembly: {grace: PT3S}", Map.of("RAGLOG_ASSEMBLY_GRACE", "PT4S",
                "RAGLOG_ASSEMBLY_GENERATOR_WAIT", "-PT1S"));
        assertThat(fromEnv.topology().assembly().grace()).isEqualTo(Duration.ofSeconds(4));
        assertThat(fromEnv.topology().assembly().promptClose()).isFalse(); // negative: event time only
        assertThat(job("assembly: {generator_wait: -PT1S}", Map.of()).topology().assembly().promptClose()).isFalse();
    }

    @Test
    void flinkFaultRatesAndBundle() throws Exception {
        RaglogConfig fromFile = config("""
                flink: {parallelism: 4, checkpoint_interval: PT10S, checkpoint_dir: "s3://b/cp"}
                fault_rates: {window: PT5M}
                bundle: /opt/bundles/b7
                """, Map.of());
        assertThat(fromFile.parallelism()).isEqualTo(4);
        Configuration flink = JobOptions.flinkConfiguration(fromFile.configuration());
        assertThat(flink.get(CheckpointingOptions.CHECKPOINTING_INTERVAL)).isEqualTo(Duration.ofSeconds(10));
        assertThat(flink.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY)).isEqualTo("s3://b/cp");
        assertThat(flink.toMap()).containsEntry("metrics.reporter.prom.port", "9249")
                .containsEntry("state.backend.type", "rocksdb");
        assertThat(fromFile.jobSettings().faultRateWindow()).isEqualTo(Duration.ofMinutes(5));
        assertThat(fromFile.jobSettings().bundle()).isEqualTo(BundleLocation.directory(Path.of("/opt/bundles/b7")));

        RaglogConfig fromEnv = config("flink: {parallelism: 4}", Map.of("RAGLOG_PARALLELISM", "6",
                "RAGLOG_CHECKPOINT_DIR", "file:///cp", "RAGLOG_FAULT_RATES_WINDOW", "PT2M", "RAGLOG_BUNDLE", "/b8",
                "RAGLOG_FLINK_PROMETHEUS_PORT", "9300"));
        assertThat(fromEnv.parallelism()).isEqualTo(6);
        assertThat(JobOptions.flinkConfiguration(fromEnv.configuration()).get(CheckpointingOptions.CHECKPOINTS_DIRECTORY))
                .isEqualTo("file:///cp");
        assertThat(JobOptions.flinkConfiguration(fromEnv.configuration()).toMap())
                .containsEntry("metrics.reporter.prom.port", "9300");
        assertThat(fromEnv.jobSettings().faultRateWindow()).isEqualTo(Duration.ofMinutes(2));
        assertThat(fromEnv.jobSettings().bundle()).isEqualTo(BundleLocation.directory(Path.of("/b8")));
    }

    @Test
    void shouldGiveDemoAndReplayWhatRunReads() throws Exception {
        Map<String, String> env = Map.of("RAGLOG_MAPPING_MAX_ATTEMPTS", "9", "RAGLOG_EMBEDDING_THREADS", "2",
                "RAGLOG_EMBEDDING_CACHE_ENTRIES", "300", "RAGLOG_VECTOR_CHECKS", "false", "RAGLOG_LLM_RETRIES", "1",
                "RAGLOG_ASSEMBLY_GRACE", "PT1S");
        JobSettings withoutFile = JobSettings.fromEnvironment(env);
        assertThat(withoutFile).isEqualTo(job("", env));
        assertThat(withoutFile.topology().mapping().maxAttempts()).isEqualTo(9);
        assertThat(withoutFile.checks().embeddingThreads()).isEqualTo(2);
        assertThat(withoutFile.checks().embeddingCacheEntries()).isEqualTo(300);
        assertThat(withoutFile.checks().vectorChecks()).isFalse();
        assertThat(withoutFile.checks().llm().retries()).isEqualTo(1);
        assertThat(withoutFile.topology().assembly().grace()).isEqualTo(Duration.ofSeconds(1));
    }

    @Test
    void shouldPrintEachValueWithItsSourceAndMaskSecrets() throws Exception {
        String printed = config("""
                kafka: {group_id: prod, properties: {sasl.jaas.config: "secret-jaas", linger.ms: "5"}}
                """, Map.of("RAGLOG_LLM_API_KEY", "sk-very-secret", "RAGLOG_EMBEDDING_THREADS", "2")).describe();
        assertThat(printed).doesNotContain("sk-very-secret").doesNotContain("secret-jaas")
                .contains("llm.api_key = ****    (RAGLOG_LLM_API_KEY)")
                .contains("kafka.group_id = prod    (YAML)")
                .contains("checks.embedding_threads = 2    (RAGLOG_EMBEDDING_THREADS)")
                .contains("kafka.bootstrap = localhost:9092    (default)")
                .contains("llm.model = (unset)    (default)")
                .contains("linger.ms=5");
        assertThat(printed.lines()).hasSize(RaglogConfig.OPTIONS.size());
    }

    @Test
    void shouldKeepSecretsOutOfTheFile() {
        assertThatThrownBy(() -> config("llm: {api_key: sk-x}", Map.of()))
                .hasMessageContaining("RAGLOG_LLM_API_KEY").hasMessageNotContaining("sk-x");
    }

    @Test
    void shouldRejectAMistypedKey() {
        assertThatThrownBy(() -> config("sampling: {defualt_rate: 0.1}", Map.of()))
                .hasMessageContaining("defualt_rate");
        assertThatThrownBy(() -> config("samplng: {default_rate: 0.1}", Map.of())).hasMessageContaining("samplng");
    }

    @Test
    void shouldNameTheKeyAndVariableOfAValueThatDoesNotParse() {
        assertThatThrownBy(() -> config("", Map.of("RAGLOG_LLM_CAPACITY", "lots")))
                .hasMessageContaining("llm.capacity").hasMessageContaining("RAGLOG_LLM_CAPACITY")
                .hasMessageContaining("lots");
        assertThatThrownBy(() -> config("assembly: {grace: soon}", Map.of()))
                .hasMessageContaining("assembly.grace");
    }

    @Test
    void shouldGiveEveryOptionOneKeyAndOneVariable() {
        assertThat(RaglogConfig.OPTIONS.stream().map(RaglogOption::key)).doesNotHaveDuplicates();
        assertThat(RaglogConfig.OPTIONS.stream().map(RaglogOption::variable)).doesNotHaveDuplicates();
        assertThat(RaglogConfig.OPTIONS).allSatisfy(o -> assertThat(o.description()).isNotBlank());
    }
}
