package io.raglog.schemas;

import java.util.List;

/**
 * The evidence-flow check: the pieces of information needed to answer the question (listed from the question
 * alone), where each was found and what the answer did with it. The scoring step's reassignment rule reads it.
 */
public record EvidenceFlow(List<EvidencePiece> pieces) {

    /** True when some needed piece is absent from the generator's context but present in a dropped passage. */
    public boolean anyOnlyInDropped() {
        return pieces != null && pieces.stream().anyMatch(p -> p.location() == EvidenceLocation.ONLY_DROPPED);
    }
}
