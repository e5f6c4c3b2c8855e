package io.raglog.schemas;

/** A call of the run that the upstream answered with an error status (a 429 before a retry, a 5xx). */
public record HttpError(String callId, Stage stage, int status) {}
