package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The windows a prompt's size is read against, by the model names vendors and hosts give. */
class ContextWindowsTest {

    @Test
    void shouldKnowAModelByTheNameItsHostGivesIt() {
        assertThat(ContextWindows.of("gpt-4o-mini")).isEqualTo(128_000);
        assertThat(ContextWindows.of("meta-llama/Llama-3.1-8B-Instruct")).isEqualTo(128_000);
        assertThat(ContextWindows.of("anthropic.claude-3-5-haiku-20241022-v1:0")).isEqualTo(200_000);
        assertThat(ContextWindows.of("us.anthropic.claude-3-5-sonnet-20241022-v2:0")).isEqualTo(200_000);
        assertThat(ContextWindows.of("meta.llama3-1-70b-instruct-v1:0")).isEqualTo(128_000);
        assertThat(ContextWindows.of("meta.llama3-8b-instruct-v1:0")).isEqualTo(8_192);
        assertThat(ContextWindows.of("amazon.nova-pro-v1:0")).isEqualTo(300_000);
        assertThat(ContextWindows.of("eu.amazon.nova-micro-v1:0")).isEqualTo(128_000);
        assertThat(ContextWindows.of("mistral.mistral-large-2407-v1:0")).isEqualTo(128_000);
    }

    @Test
    void shouldKnowVertexAisModelsWhateverVersionTheyCarry() {
        assertThat(ContextWindows.of("claude-3-5-sonnet-v2@20241022")).isEqualTo(200_000);
        assertThat(ContextWindows.of("claude-sonnet-4@20250514")).isEqualTo(200_000);
        assertThat(ContextWindows.of("mistral-large-2411")).isEqualTo(128_000);
        assertThat(ContextWindows.of("mistral-large@2407")).isEqualTo(128_000);
        assertThat(ContextWindows.of("meta/llama-3.3-70b-instruct-maas")).isEqualTo(128_000);
        assertThat(ContextWindows.of("meta/llama-3.2-90b-vision-instruct-maas")).isEqualTo(128_000);
    }

    @Test
    void shouldKnowNoWindowForAModelItHasNotMet() {
        assertThat(ContextWindows.of("acme-internal-7b")).isNull();
        assertThat(ContextWindows.of("amazon.titan-text-express-v1")).isNull();
        assertThat(ContextWindows.of(null)).isNull();
    }
}
