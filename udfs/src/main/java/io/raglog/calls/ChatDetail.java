package io.raglog.calls;

import io.raglog.schemas.TokenUsage;
import java.util.ArrayList;
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

    /** What {@link #promptText} puts between two message contents: a blank line. */
    public static final String PROMPT_SEPARATOR = "\n\n";

    /**
     * Every message content joined by a blank line, as the model saw it; no separator before the first non-empty one.
     * Joined by String.join, which sizes one array for the result: a builder grown from Latin-1 to UTF-16 by a curly
     * quote and then copied out made the prompt three to six times over (JFR). A lone message's content is its prompt
     * text as it is.
     */
    public String promptText() {
        List<String> parts = promptParts();
        return parts.size() == 1 ? parts.get(0) : String.join(PROMPT_SEPARATOR, parts);
    }

    /**
     * The contents {@link #promptText} joins by {@link #PROMPT_SEPARATOR}, for a reader that need not join them (run
     * assembly normalises the prompt from them, without a joined copy of several KB).
     */
    public List<String> promptParts() {
        List<String> contents = new ArrayList<>(messages.size());
        for (ChatMessage m : messages) {
            String content = m.content() == null ? "" : m.content();
            if (contents.isEmpty() && content.isEmpty()) {
                continue; // nothing written yet: no separator for it either
            }
            contents.add(content);
        }
        return contents;
    }
}
