package io.raglog.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Where a needed piece of information was found. */
public enum EvidenceLocation {
    /** In a passage the generator was given. */
    IN_CONTEXT,
    /** Retrieved, but only in passages that never reached the generator (the reranker or the cut-off dropped them). */
    ONLY_DROPPED,
    /** In no retrieved passage. */
    NOWHERE;

    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
