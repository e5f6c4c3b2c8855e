package io.raglog.calls.mapping;

/** A proposed field mapping was refused; the message says why, in words a person and the model can act on. */
public final class InvalidMappingException extends Exception {

    private static final long serialVersionUID = 1L;

    public InvalidMappingException(String reason) {
        super(reason);
    }
}
