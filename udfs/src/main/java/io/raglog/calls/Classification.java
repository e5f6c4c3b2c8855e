package io.raglog.calls;

/** The outcome of classifying one call. */
public sealed interface Classification {

    /** A call that belongs to a run stage, or a recognised call that is not part of any run. */
    record Classified(ClassifiedCall call) implements Classification {}

    /** No adapter owns the endpoint: counted, and (with an LLM judge) a field mapping may be proposed later. */
    record Unclassified(String reason) implements Classification {}

    /** An adapter owns the endpoint but could not read the body: malformed input, to the dead-letter topic. */
    record Unreadable(String reason) implements Classification {}
}
