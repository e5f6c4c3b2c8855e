package io.raglog.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ChatProvidersTest {

    private static LlmSettings settings(String provider) {
        return LlmSettings.fromEnv(Map.of(LlmSettings.PROVIDER, provider, LlmSettings.MODEL, "m-1",
                LlmSettings.API_KEY, "key-1", LlmSettings.REGION, "us-east-1"));
    }

    @Test
    void shouldSpeakTheProtocolTheSettingsName() {
        try (ChatProvider openAi = ChatProviders.create(settings("openai"));
                ChatProvider anthropic = ChatProviders.create(settings("anthropic"));
                ChatProvider bedrock = ChatProviders.create(settings("bedrock"))) {
            assertThat(openAi).isInstanceOf(OpenAiProvider.class);
            assertThat(openAi.id()).isEqualTo("openai:m-1");
            assertThat(anthropic).isInstanceOf(AnthropicProvider.class);
            assertThat(anthropic.id()).isEqualTo("anthropic:m-1");
            assertThat(bedrock).isInstanceOf(BedrockProvider.class);
            assertThat(bedrock.id()).isEqualTo("bedrock:m-1");
        }
    }

    @Test
    void shouldRefuseTheOfflineJudge() {
        assertThatThrownBy(() -> ChatProviders.create(settings("offline")))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
