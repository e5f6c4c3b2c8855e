package io.raglog.schemas;

/** The {@code schema} value each contract carries. A breaking change bumps the version and keeps a reader for N-1. */
public final class SchemaIds {
    public static final String CALL_V1 = "raglog.call/v1";
    public static final String RUN_V1 = "raglog.run/v1";
    /** v2 adds the stage {@code assemble}; v1 runs are still read (it is then absent). */
    public static final String RUN_V2 = "raglog.run/v2";
    /** v3 adds the passage fate {@code extracted} to {@code assemble}; v1 and v2 runs are still read. */
    public static final String RUN_V3 = "raglog.run/v3";
    public static final String DEAD_LETTER_V1 = "raglog.dead-letter/v1";
    public static final String LABEL_V1 = "raglog.label/v1";
    /** v2 adds {@code knowledge_gap}; v1 lines are still read ({@link Label}). */
    public static final String LABEL_V2 = "raglog.label/v2";
    /** v3 labels the stage {@code assemble}; v1 and v2 lines are still read (it is then unlabeled). */
    public static final String LABEL_V3 = "raglog.label/v3";
    /** v4 adds {@code session} (the run's place in a simulated user session, re-asks); v1 to v3 lines are still read. */
    public static final String LABEL_V4 = "raglog.label/v4";

    private SchemaIds() {}
}
