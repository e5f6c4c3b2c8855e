package io.raglog.llm;

import java.util.concurrent.CompletableFuture;

/**
 * One LLM vendor protocol. {@link #send} makes exactly one HTTP call and completes with the reply or an
 * {@link LlmCallException}; retries, back-off and rate limiting are the caller's ({@link LlmJudge}).
 */
public interface ChatProvider extends AutoCloseable {

    /** e.g. {@code openai:gpt-4o-mini}: recorded wherever this provider's numbers go. */
    String id();

    CompletableFuture<ChatReply> send(ChatRequest request);

    @Override
    void close();
}
