package io.raglog.calls.otlp;

/** A message that is not a readable ExportTraceServiceRequest; the message says where and why, for the DLQ. */
class MalformedOtlpException extends Exception {

    private static final long serialVersionUID = 1L;

    MalformedOtlpException(String message) {
        super(message);
    }

    /**
     * This error, found where the location was left out of its message (a message that starts with the rest of the
     * path, or with ": "), with the location put in front: a loop over many elements builds an element's location only
     * when something in it is wrong.
     */
    MalformedOtlpException under(String location) {
        return new MalformedOtlpException(location + getMessage());
    }
}
