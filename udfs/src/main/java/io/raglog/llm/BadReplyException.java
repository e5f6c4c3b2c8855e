package io.raglog.llm;

/** The model answered, but not with the JSON the check asked for. Retried like a transient failure. */
public final class BadReplyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public BadReplyException(String message) {
        super(message);
    }

    public BadReplyException(String message, Throwable cause) {
        super(message, cause);
    }
}
