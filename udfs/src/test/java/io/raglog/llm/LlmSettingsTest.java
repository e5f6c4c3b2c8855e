package io.raglog.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.checkstage.ChecksSettings;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LlmSettingsTest {

    @Test
    void shouldDefaultToTheOfflineJudge() {
        LlmSettings s = LlmSettings.defaults();
        assertThat(s.provider()).isEqualTo(ProviderKind.OFFLINE);
        assertThat(s.judgeId()).isEqualTo(OfflineJudge.ID);
        assertThat(s.economy()).isFalse();
        assertThat(s.cost(1000, 1000)).isZero();
        assertThat(s.runTimeout()).isGreaterThan(s.callTimeout().multipliedBy(s.retries() + 1));
    }

    @Test
    void shouldReadEveryKnobFromTheEnvironment() {
        LlmSettings s = LlmSettings.fromEnv(Map.ofEntries(Map.entry(LlmSettings.PROVIDER, "Anthropic"),
                Map.entry(LlmSettings.MODEL, "claude-test"), Map.entry(LlmSettings.API_KEY, "key-1"),
                Map.entry(LlmSettings.ECONOMY, "true"), Map.entry(LlmSettings.CAPACITY, "4"),
                Map.entry(LlmSettings.TIMEOUT_MS, "1500"), Map.entry(LlmSettings.RETRIES, "5"),
                Map.entry(LlmSettings.RPS, "2.5")));
        assertThat(s.provider()).isEqualTo(ProviderKind.ANTHROPIC);
        assertThat(s.baseUrl()).isEqualTo("https://api.anthropic.com/v1");
        assertThat(s.economy()).isTrue();
        assertThat(s.capacity()).isEqualTo(4);
        assertThat(s.callTimeout()).isEqualTo(Duration.ofMillis(1500));
        assertThat(s.retries()).isEqualTo(5);
        assertThat(s.requestsPerSecond()).isEqualTo(2.5);
        assertThat(s.cost(10, 10)).as("no price configured: unknown, not free").isNull();
        assertThat(s.judgeId()).isEqualTo("anthropic:claude-test");
    }

    @Test
    void shouldReadTheLlmModeAndStillHonourTheOlderEconomySwitch() {
        assertThat(LlmSettings.defaults().mode()).isEqualTo(LlmMode.DEFAULT);
        LlmSettings tiered = LlmSettings.fromEnv(Map.of(LlmSettings.MODE, "Tiered"));
        assertThat(tiered.tiered()).isTrue();
        assertThat(tiered.economy()).as("tiered runs every check on the runs it does not skip").isFalse();
        assertThat(LlmSettings.fromEnv(Map.of(LlmSettings.MODE, "economy")).economy()).isTrue();
        assertThat(LlmSettings.fromEnv(Map.of(LlmSettings.ECONOMY, "true")).mode()).isEqualTo(LlmMode.ECONOMY);
        assertThat(tiered.withMode(LlmMode.DEFAULT).mode()).isEqualTo(LlmMode.DEFAULT);
        assertThat(LlmSettings.fromEnv(Map.of(LlmSettings.MODE, "default", LlmSettings.ECONOMY, "true")).economy())
                .as("a chart that writes mode: default keeps honouring economy: true").isTrue();
        assertThatThrownBy(() -> LlmSettings.fromEnv(Map.of(LlmSettings.MODE, "cheap")))
                .hasMessageContaining("default, economy or tiered");
        assertThatThrownBy(() -> LlmSettings.fromEnv(Map.of(LlmSettings.MODE, "tiered", LlmSettings.ECONOMY, "true")))
                .hasMessageContaining(LlmSettings.ECONOMY).hasMessageContaining(LlmSettings.MODE);
    }

    @Test
    void shouldNameWhatIsWrongOrMissing() {
        assertThatThrownBy(() -> LlmSettings.fromEnv(Map.of(LlmSettings.PROVIDER, "gemini")))
                .hasMessageContaining("RAGLOG_LLM_PROVIDER");
        assertThatThrownBy(() -> LlmSettings.fromEnv(Map.of(LlmSettings.PROVIDER, "openai")))
                .hasMessageContaining(LlmSettings.MODEL);
        assertThatThrownBy(() -> LlmSettings.fromEnv(Map.of(LlmSettings.CAPACITY, "lots")))
                .hasMessageContaining(LlmSettings.CAPACITY);
    }

    @Test
    void shouldKeepTheKeyOutOfEveryToString() {
        ChecksSettings s = ChecksSettings.fromEnv(Map.of(LlmSettings.PROVIDER, "openai", LlmSettings.MODEL, "m",
                LlmSettings.API_KEY, "sk-very-secret"));
        assertThat(s.toString()).doesNotContain("sk-very-secret");
        assertThat(s.llm().apiKey().toString()).isEqualTo("****");
        assertThat(s.llm().apiKey().redact("echo sk-very-secret")).isEqualTo("echo ****");
    }
}
