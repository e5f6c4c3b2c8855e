package io.raglog.llm;

/**
 * One model call: instructions in the system message, the run's logged data fenced in the user message.
 *
 * @param promptId the versioned prompt it came from, e.g. {@code rewrite.v1}
 */
public record ChatRequest(String promptId, String system, String user, int maxOutputTokens) {}
