package io.raglog.schemas;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What a reviewer said about one stage of a queued run, against what raglog said: the audit trail beside the label
 * a review carries. Only a stage the verdict flagged can be confirmed or rejected; only a present stage it did not
 * flag can be added (a stage raglog missed) or left sound.
 */
public enum StageReview {
    /** Flagged by raglog, faulty by the reviewer: label 1. */
    CONFIRMED,
    /** Flagged by raglog, sound by the reviewer: label 0, a false positive. */
    REJECTED,
    /** Not flagged by raglog, faulty by the reviewer: label 1, a stage raglog missed. */
    ADDED,
    /** Not flagged by raglog, left sound by the reviewer: label 0. */
    SOUND;

    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    @JsonCreator
    public static StageReview of(String id) {
        return valueOf(id.toUpperCase(Locale.ROOT));
    }

    /** The label this decision makes: 1 faulty, 0 sound. */
    public int label() {
        return this == CONFIRMED || this == ADDED ? 1 : 0;
    }

    /** Whether a decision can be made on a stage raglog did or did not flag. */
    public boolean fits(boolean flagged) {
        return flagged == (this == CONFIRMED || this == REJECTED);
    }
}
