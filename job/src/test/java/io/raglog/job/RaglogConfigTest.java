package io.raglog.job;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.assemble.AssemblySettings;
import io.raglog.checkstage.ChecksSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.junit.jupiter.api.Test;

class RaglogConfigTest {

    @Test
    void shouldReadTheDocumentedExampleAsTheDefaults() throws Exception {
        Path example = Path.of("..", "raglog.example.yaml");
        RaglogConfig fromExample = RaglogConfig.load(example, Map.of());
        RaglogConfig empty = RaglogConfig.parse("", Map.of());
        assertThat(Files.exists(example)).isTrue();
        assertThat(fromExample.kafka()).isEqualTo(empty.kafka());
        assertThat(fromExample.sampling()).isEqualTo(empty.sampling());
        assertThat(fromExample.faultRates()).isEqualTo(empty.faultRates());
        assertThat(fromExample.flink()).isEqualTo(empty.flink());
        assertThat(RunCommand.connection(fromExample).guarantee()).isEqualTo(DeliveryGuarantee.EXACTLY_ONCE);
        assertThat(RunCommand.connection(fromExample).bounded()).isFalse();
    }

    @Test
    void shouldLetTheEnvironmentOverrideTheFile() throws Exception {
        RaglogConfig cfg = RaglogConfig.parse("""
                kafka: {bootstrap: "kafka-a:9092", group_id: prod}
                sampling: {default_rate: 0.5, pipelines: {support-bot: 0.1}}
                llm: {provider: openai, model: gpt-4o-mini, economy: false}
                """, Map.of("RAGLOG_KAFKA_BOOTSTRAP", "kafka-b:9093", "RAGLOG_SAMPLING_RATE", "0.25",
                "RAGLOG_LLM_ECONOMY", "true", "RAGLOG_ES_HOSTS", "https://es1:9200,https://es2:9200"));

        assertThat(cfg.kafka().bootstrap()).isEqualTo("kafka-b:9093");
        assertThat(cfg.kafka().groupId()).isEqualTo("prod");
        assertThat(cfg.sampling().defaultRate()).isEqualTo(0.25);
        assertThat(cfg.sampling().pipelines()).containsEntry("support-bot", 0.1);
        assertThat(cfg.elasticsearch().enabled()).isTrue();
        assertThat(cfg.elasticsearch().hosts()).containsExactly("https://es1:9200", "https://es2:9200");
        Map<String, String> llm = cfg.checksEnvironment(Map.of("RAGLOG_LLM_ECONOMY", "true"));
        assertThat(llm).containsEntry("RAGLOG_LLM_PROVIDER", "openai").containsEntry("RAGLOG_LLM_ECONOMY", "true");
    }

    @Test
    void shouldPassTheLlmModeFromTheFileToTheChecks() throws Exception {
        RaglogConfig cfg = RaglogConfig.parse("llm: {mode: tiered}\n", Map.of());
        assertThat(cfg.checksEnvironment(Map.of())).containsEntry("RAGLOG_LLM_MODE", "tiered");
        assertThat(RunCommand.jobSettings(cfg, Map.of()).checks().llm().tiered()).isTrue();
    }

    @Test
    void shouldPassTheChecksOwnVariablesToTheJob() throws Exception {
        // variables with no key in the file: run read only RAGLOG_LLM_* and dropped these without a word
        RaglogConfig cfg = RaglogConfig.parse("llm: {provider: offline}\n", Map.of());
        ChecksSettings checks = RunCommand.jobSettings(cfg, Map.of(ChecksSettings.EMBEDDING_THREADS, "2",
                ChecksSettings.EMBEDDING_CACHE, "500", ChecksSettings.VECTOR_CHECKS, "false",
                "RAGLOG_UNRELATED", "x")).checks();
        assertThat(checks.embeddingThreads()).isEqualTo(2);
        assertThat(checks.embeddingCacheEntries()).isEqualTo(500);
        assertThat(checks.vectorChecks()).isFalse();
        assertThat(cfg.checksEnvironment(Map.of("RAGLOG_UNRELATED", "x"))).doesNotContainKey("RAGLOG_UNRELATED");
    }

    @Test
    void shouldMapTheConfigToTheJobSettings() throws Exception {
        RaglogConfig cfg = RaglogConfig.parse("""
                assembly: {grace: PT3S, run_timeout: PT5M}
                fault_rates: {window: PT5M}
                sampling: {default_rate: 0.2}
                """, Map.of());
        JobSettings settings = RunCommand.jobSettings(cfg, Map.of());
        assertThat(settings.topology().assembly().grace()).isEqualTo(Duration.ofSeconds(3));
        assertThat(settings.topology().assembly().runTimeout()).isEqualTo(Duration.ofMinutes(5));
        assertThat(settings.topology().assembly().maxRunDuration()).isEqualTo(Duration.ofMinutes(5));
        assertThat(settings.topology().assembly().generatorWait()).isEqualTo(Duration.ofMillis(300));
        assertThat(settings.faultRateWindow()).isEqualTo(Duration.ofMinutes(5));
        assertThat(settings.sampling().rate("anything")).isEqualTo(0.2);
        assertThat(settings.checks().llm().judgeId()).startsWith("offline");
    }

    @Test
    void shouldTurnThePromptCloseOffWithANegativeGeneratorWait() throws Exception {
        AssemblySettings tuned = RunCommand.jobSettings(RaglogConfig.parse(
                "assembly: {generator_wait: PT0.5S, generator_wait_max_lag: PT30S}", Map.of()), Map.of())
                .topology().assembly();
        assertThat(tuned.generatorWait()).isEqualTo(Duration.ofMillis(500));
        assertThat(tuned.generatorWaitMaxLag()).isEqualTo(Duration.ofSeconds(30));
        AssemblySettings off = RunCommand.jobSettings(RaglogConfig.parse("assembly: {generator_wait: -PT1S}",
                Map.of()), Map.of()).topology().assembly();
        assertThat(off.promptClose()).isFalse();
    }

    @Test
    void shouldRejectAMistypedKey() {
        assertThatThrownBy(() -> RaglogConfig.parse("sampling: {defualt_rate: 0.1}", Map.of()))
                .hasMessageContaining("defualt_rate");
    }
}
