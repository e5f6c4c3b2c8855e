package io.raglog.llm;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** Who answers the LLM checks. */
public enum ProviderKind {
    /** The deterministic offline judge: no network, lexical and embedding evidence. The default. */
    OFFLINE,
    /** An OpenAI-compatible chat-completions endpoint: OpenAI, Azure OpenAI, vLLM, Ollama, LiteLLM. */
    OPENAI,
    /** Anthropic's Messages API. */
    ANTHROPIC,
    /** Amazon Bedrock's Converse API, with a Bedrock API key or the AWS credentials of the job's pods. */
    BEDROCK;

    public static ProviderKind parse(String value) {
        try {
            return valueOf(value.strip().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("RAGLOG_LLM_PROVIDER must be " + choices() + ", not '" + value + "'",
                    e);
        }
    }

    /** {@code offline, openai, anthropic or bedrock}: every kind, so the message cannot fall behind the enum. */
    private static String choices() {
        String ids = Arrays.stream(values()).map(ProviderKind::id).collect(Collectors.joining(", "));
        int last = ids.lastIndexOf(", ");
        return ids.substring(0, last) + " or " + ids.substring(last + 2);
    }

    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
