package io.raglog.schemas;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Run ids are derived, never random, so that replaying the same calls gives the same ids (Elasticsearch documents
 * are keyed by run id: a replay overwrites instead of duplicating). The simulator uses the same function to write
 * the run id into its labels.
 */
public final class RunIds {

    private RunIds() {}

    /**
     * @param runHint the run's hint (header id, trace id) when it had one, else null
     * @param anchorEventId the event id of the call that closed the run (the generator call), or of the first call of
     *     an incomplete run; used only when there is no hint
     */
    public static String of(String pipeline, String runHint, String anchorEventId) {
        String basis = runHint != null && !runHint.isBlank()
                ? pipeline + "\u001fhint\u001f" + runHint
                : pipeline + "\u001fcall\u001f" + anchorEventId;
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(basis.getBytes(StandardCharsets.UTF_8));
            return "run-" + HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by the Java platform", e);
        }
    }
}
