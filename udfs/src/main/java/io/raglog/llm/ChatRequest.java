package io.raglog.llm;

/**
 * One model call: instructions in the system message, the run's logged data fenced in the user message. Both are held
 * as they go into a request body ({@link EscapedText}): the instructions are the same for every run of a check, and
 * escaping them again for every body was 28 % of the CPU building a run's requests took (llmRequests, JFR).
 *
 * @param promptId the versioned prompt it came from, e.g. {@code rewrite.v1}
 */
public record ChatRequest(String promptId, EscapedText escapedSystem, EscapedText escapedUser, int maxOutputTokens) {

    public ChatRequest(String promptId, String system, EscapedText user, int maxOutputTokens) {
        this(promptId, EscapedText.of(system), user, maxOutputTokens);
    }

    /** The system message's text. */
    public String system() {
        return escapedSystem == null ? null : escapedSystem.text();
    }

    /** The user message's text. */
    public String user() {
        return escapedUser == null ? null : escapedUser.text();
    }
}
