package io.raglog.llm;

/** The model's text and the tokens it billed; token counts are 0 when the provider did not report them. */
public record ChatReply(String text, long inputTokens, long outputTokens) {}
