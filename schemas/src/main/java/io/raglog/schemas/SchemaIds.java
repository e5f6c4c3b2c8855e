package io.raglog.schemas;

/** The {@code schema} value each contract carries. A breaking change bumps the version and keeps a reader for N-1. */
public final class SchemaIds {
    public static final String CALL_V1 = "raglog.call/v1";
    public static final String RUN_V1 = "raglog.run/v1";
    public static final String DEAD_LETTER_V1 = "raglog.dead-letter/v1";
    public static final String LABEL_V1 = "raglog.label/v1";
    /** v2 adds {@code knowledge_gap}; v1 lines are still read ({@link Label}). */
    public static final String LABEL_V2 = "raglog.label/v2";

    private SchemaIds() {}
}
