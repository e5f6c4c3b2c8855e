package io.raglog.calls;

/** A known endpoint whose body cannot be read: the call goes to the dead-letter topic with this message. */
public class AdapterException extends Exception {
    public AdapterException(String message) {
        super(message);
    }

    public AdapterException(String message, Throwable cause) {
        super(message, cause);
    }
}
