package io.raglog.calls.mapping;

/** How one proposal for one endpoint went; {@code llmCalls} counts HTTP calls, retries of a 429 or 5xx included. */
public sealed interface Proposal {

    int llmCalls();

    /** Validated against the sample: keep it and apply it to every call of the endpoint. */
    record Accepted(FieldMapping mapping, int llmCalls) implements Proposal {}

    /** Nothing to keep; {@code reason} is free of secrets and short enough for a log line and the next prompt. */
    record Rejected(String reason, int llmCalls) implements Proposal {}
}
