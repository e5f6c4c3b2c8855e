package io.raglog.calls.otlp;

/** A message that is not a readable ExportTraceServiceRequest; the message says where and why, for the DLQ. */
class MalformedOtlpException extends Exception {

    private static final long serialVersionUID = 1L;

    MalformedOtlpException(String message) {
        super(message);
    }
}
