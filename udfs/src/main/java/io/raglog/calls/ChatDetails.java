package io.raglog.calls;

import io.raglog.schemas.TokenUsage;
import java.util.List;

/**
 * The one way every chat-shaped adapter (OpenAI, Anthropic, Responses, OTLP spans) builds a {@link ChatDetail}, so
 * that prompt reading and role rules are applied identically whatever the vendor, and whatever the framework's layout
 * ({@link DspyFields}).
 */
public final class ChatDetails {

    private ChatDetails() {}

    public static ChatDetail of(String adapter, String model, List<ChatMessage> messages, String output,
            TokenUsage usage, boolean streamed) {
        if (DspyFields.used(messages)) {
            messages = DspyFields.messages(messages);
            output = DspyFields.output(output);
        }
        PromptAnatomy.Parsed anatomy = PromptAnatomy.parse(messages);
        return of(adapter, model, messages, output, usage, streamed, anatomy,
                ChatRoleRules.roleOf(messages, output, anatomy));
    }

    /**
     * A call whose API itself says what it does (Cohere's {@code search_queries_only}: write search queries), so the
     * role is not read from the prompt.
     */
    public static ChatDetail withRole(String adapter, String model, List<ChatMessage> messages, String output,
            TokenUsage usage, boolean streamed, ChatRole role) {
        return of(adapter, model, messages, output, usage, streamed, PromptAnatomy.parse(messages), role);
    }

    private static ChatDetail of(String adapter, String model, List<ChatMessage> messages, String output,
            TokenUsage usage, boolean streamed, PromptAnatomy.Parsed anatomy, ChatRole role) {
        return new ChatDetail(adapter, model, List.copyOf(messages), output, usage == null ? TokenUsage.UNKNOWN : usage,
                role, anatomy.question(), anatomy.contextText(), anatomy.contextPassages(), streamed);
    }
}
