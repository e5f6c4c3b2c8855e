package io.raglog.calls;

import io.raglog.schemas.TokenUsage;
import java.util.Arrays;
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
     * text as it is. Joined from an array of the contents, not a list of them: the list and the array String.join
     * grew from it were a third of what this allocated (2.4 % of the assembly task's allocation, issue #27).
     */
    public String promptText() {
        int first = firstPromptMessage();
        if (messages.size() - first == 1) {
            return content(messages.get(first));
        }
        return String.join(PROMPT_SEPARATOR, promptContents(first));
    }

    /**
     * The contents {@link #promptText} joins by {@link #PROMPT_SEPARATOR}, for a reader that need not join them (run
     * assembly normalises the prompt from them, without a joined copy of several KB). A fixed-size view of an array:
     * read it, do not add to it.
     */
    public List<String> promptParts() {
        return Arrays.asList(promptContents(firstPromptMessage()));
    }

    /** The first message whose content is not empty (or the count of messages): those before it are left out. */
    private int firstPromptMessage() {
        int first = 0;
        while (first < messages.size() && content(messages.get(first)).isEmpty()) {
            first++; // nothing written yet: no separator for it either
        }
        return first;
    }

    private String[] promptContents(int first) {
        String[] contents = new String[messages.size() - first];
        for (int i = 0; i < contents.length; i++) {
            contents[i] = content(messages.get(first + i));
        }
        return contents;
    }

    private static String content(ChatMessage m) {
        return m.content() == null ? "" : m.content();
    }
}
