package io.raglog.calls;

import java.util.List;

/** Tells a rewriter call from a generator call (both are chat calls) by what the prompt asks and carries. */
public final class ChatRoleRules {

    private ChatRoleRules() {}

    public static ChatRole roleOf(List<ChatMessage> messages, String output, PromptAnatomy.Parsed anatomy) {
        return anatomy.hasContext() ? ChatRole.GENERATE : ChatRole.REWRITE;
    }
}
