package io.raglog.llm;

/**
 * Builds the HTTP client for the model the settings name: the one place a provider kind becomes a protocol, for the
 * LLM checks and the field-mapping proposals alike.
 */
public final class ChatProviders {

    private ChatProviders() {}

    /** @throws IllegalArgumentException for the offline judge, which asks no model */
    public static ChatProvider create(LlmSettings settings) {
        return switch (settings.provider()) {
            case OPENAI -> new OpenAiProvider(settings);
            case ANTHROPIC -> new AnthropicProvider(settings);
            case OFFLINE -> throw new IllegalArgumentException("the offline judge asks no model");
        };
    }
}
