package io.raglog.calls;

/** One message of a chat request, content flattened to text (multi-part text contents are joined). */
public record ChatMessage(String role, String content) {}
