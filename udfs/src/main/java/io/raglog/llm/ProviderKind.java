package io.raglog.llm;

import java.util.Locale;

/** Who answers the LLM checks. */
public enum ProviderKind {
    /** The deterministic offline judge: no network, lexical and embedding evidence. The default. */
    OFFLINE,
    /** An OpenAI-compatible chat-completions endpoint: OpenAI, Azure OpenAI, vLLM, Ollama, LiteLLM. */
    OPENAI,
    /** Anthropic's Messages API. */
    ANTHROPIC;

    public static ProviderKind parse(String value) {
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("RAGLOG_LLM_PROVIDER must be offline, openai or anthropic, not '"
                    + value + "'", e);
        }
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
