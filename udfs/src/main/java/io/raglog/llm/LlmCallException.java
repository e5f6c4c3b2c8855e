package io.raglog.llm;

import java.time.Duration;

/** One model call failed. Says whether trying again can help and, for a 429, how long the endpoint asked to wait. */
public final class LlmCallException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public enum Kind {
        RATE_LIMITED(true), SERVER_ERROR(true), TIMEOUT(true), NETWORK(true), BAD_REPLY(true), CLIENT_ERROR(false);

        private final boolean retryable;

        Kind(boolean retryable) {
            this.retryable = retryable;
        }
    }

    private final Kind kind;
    private final int status;
    private final transient Duration retryAfter;

    /** The message must never hold the API key: callers pass texts already redacted. */
    public LlmCallException(Kind kind, int status, Duration retryAfter, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
        this.status = status;
        this.retryAfter = retryAfter;
    }

    public Kind kind() {
        return kind;
    }

    /** HTTP status, 0 when there was no response. */
    public int status() {
        return status;
    }

    /** The Retry-After the endpoint sent, or null. */
    public Duration retryAfter() {
        return retryAfter;
    }

    public boolean retryable() {
        return kind.retryable;
    }
}
