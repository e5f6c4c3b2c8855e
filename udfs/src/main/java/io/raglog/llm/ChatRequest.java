package io.raglog.llm;

/**
 * One model call: instructions in the system message, the run's logged data fenced in the user message.
 *
 * @param promptId the versioned prompt it came from, e.g. {@code rewrite.v1}
 * @param escapedUser the user message as it goes into a request body ({@link EscapedText})
 */
public record ChatRequest(String promptId, String system, EscapedText escapedUser, int maxOutputTokens) {

    public ChatRequest(String promptId, String system, String user, int maxOutputTokens) {
        this(promptId, system, EscapedText.of(user), maxOutputTokens);
    }

    /** The user message's text. */
    public String user() {
        return escapedUser == null ? null : escapedUser.text();
    }
}
