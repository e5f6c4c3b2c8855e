package io.raglog.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ProviderKindTest {

    @Test
    void shouldReadEveryProviderWhateverItsCase() {
        assertThat(ProviderKind.parse("bedrock")).isEqualTo(ProviderKind.BEDROCK);
        assertThat(ProviderKind.parse(" Bedrock ")).isEqualTo(ProviderKind.BEDROCK);
        assertThat(ProviderKind.parse("OFFLINE")).isEqualTo(ProviderKind.OFFLINE);
        assertThat(ProviderKind.BEDROCK.id()).isEqualTo("bedrock");
    }

    @Test
    void shouldListEveryProviderWhenTheValueIsNoneOfThem() {
        assertThatThrownBy(() -> ProviderKind.parse("vertex"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("RAGLOG_LLM_PROVIDER must be offline, openai, anthropic or bedrock, not 'vertex'");
    }
}
