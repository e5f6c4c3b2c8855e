package io.raglog.llm;

/**
 * Builds the HTTP client for the model the settings name: the one place a provider kind becomes a protocol, for the
 * LLM checks and the field-mapping proposals alike.
 */
public final class ChatProviders {

    private ChatProviders() {}

    /**
     * @throws IllegalArgumentException for the offline judge, which asks no model
     * @throws IllegalStateException for bedrock with neither an API key nor AWS credentials
     */
    public static ChatProvider create(LlmSettings settings) {
        return switch (settings.provider()) {
            case OPENAI -> new OpenAiProvider(settings);
            case ANTHROPIC -> new AnthropicProvider(settings);
            case BEDROCK -> new BedrockProvider(settings);
            case OFFLINE -> throw new IllegalArgumentException("the offline judge asks no model");
        };
    }
}
