package io.raglog.schemas;

/**
 * Run ids are derived, never random, so that replaying the same calls gives the same ids (Elasticsearch documents
 * are keyed by run id: a replay overwrites instead of duplicating). The simulator uses the same function to write
 * the run id into its labels.
 */
public final class RunIds {

    private static final String HINTED = "\u001fhint\u001f";
    private static final String BY_CALL = "\u001fcall\u001f";

    /**
     * Hashes the basis's parts in turn rather than their concatenation, in a digest kept per thread: making the basis,
     * its UTF-8 copy, a new SHA-256 and the hex was 3.5 % of the assembly task's allocation (JFR, issue #27). The
     * same bytes are hashed (the separators are ASCII, so no surrogate pair spans two parts), so the same ids come out.
     */
    private static final ThreadLocal<TextDigest> SHA256 = TextDigest.perThread("SHA-256");

    private RunIds() {}

    /**
     * SHA-256 of {@code pipeline \u001fhint\u001f runHint}, or when the run has no hint of {@code pipeline
     * \u001fcall\u001f anchorEventId} (UTF-8, a null as "null"), as {@code run-} and its first 12 bytes in hex.
     *
     * @param runHint the run's hint (header id, trace id) when it had one, else null
     * @param anchorEventId the event id of the call that closed the run (the generator call), or of the first call of
     *     an incomplete run; used only when there is no hint
     */
    public static String of(String pipeline, String runHint, String anchorEventId) {
        boolean hinted = runHint != null && !runHint.isBlank();
        return SHA256.get()
                .add(String.valueOf(pipeline))
                .add(hinted ? HINTED : BY_CALL)
                .add(hinted ? runHint : String.valueOf(anchorEventId))
                .hex("run-", 12);
    }
}
