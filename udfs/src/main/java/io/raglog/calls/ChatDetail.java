package io.raglog.calls;

import io.raglog.schemas.TokenUsage;
import java.util.List;

/**
 * A chat / completion / messages / responses call: rewriter or generator.
 *
 * @param messages the request as messages; a legacy completion's {@code prompt} becomes one user message
 * @param output the assistant text, reassembled from the stream when the reply was SSE
 * @param question the user's question as far as the prompt shows it (see {@code PromptAnatomy}); null if unknown
 * @param contextText the context block of a generator prompt, null when none was recognised
 * @param contextPassages that block split into passages, best effort; assembly refines it against known passages
 */
public record ChatDetail(
        String adapter,
        String model,
        List<ChatMessage> messages,
        String output,
        TokenUsage usage,
        ChatRole role,
        String question,
        String contextText,
        List<String> contextPassages,
        boolean streamed) implements CallDetail {

    /** Every message content joined, as the model saw it. */
    public String promptText() {
        int length = 0;
        for (ChatMessage m : messages) {
            length += (m.content() == null ? 0 : m.content().length()) + 2;
        }
        StringBuilder sb = new StringBuilder(length);
        for (ChatMessage m : messages) {
            if (sb.length() > 0) {
                sb.append("\n\n");
            }
            sb.append(m.content() == null ? "" : m.content());
        }
        return sb.toString();
    }
}
