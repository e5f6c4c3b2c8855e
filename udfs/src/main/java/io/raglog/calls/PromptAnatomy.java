package io.raglog.calls;

import java.util.List;

/**
 * Reads a chat prompt the way a person would: where the user's question is, and where the context block of a
 * generator prompt is (LangChain, LlamaIndex "Context information is below.", "Context:\n...\nQuestion:", a system
 * message holding the context and a user message holding the question, ...).
 */
public final class PromptAnatomy {

    /**
     * @param question the user's question, null when it cannot be told
     * @param contextText the context block, null when the prompt has none
     * @param contextPassages the block split into passages, best effort, empty when none
     */
    public record Parsed(String question, String contextText, List<String> contextPassages) {
        public boolean hasContext() {
            return contextText != null && !contextText.isBlank();
        }
    }

    private PromptAnatomy() {}

    public static Parsed parse(List<ChatMessage> messages) {
        String lastUser = null;
        for (ChatMessage m : messages) {
            if ("user".equals(m.role())) {
                lastUser = m.content();
            }
        }
        return new Parsed(lastUser == null ? null : lastUser.strip(), null, List.of());
    }
}
