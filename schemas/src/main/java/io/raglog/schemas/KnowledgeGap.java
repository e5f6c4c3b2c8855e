package io.raglog.schemas;

import java.util.List;

/**
 * A verdict's knowledge-gap decision ({@code verdict.v2.json}): the question asks what the knowledge base does not
 * hold. Not a stage fault: no stage could have answered, and the fix (adding content) belongs to whoever writes it.
 *
 * @param flagged the gap was decided
 * @param score how strongly the features point to a gap, in [0, 1]; null when the features to decide it were missing
 * @param evidence what the question asks, that no passage holds it, what the answer did; empty when not flagged
 * @param repairHint what the content owner should add; null when not flagged
 * @param clearedRetrieve whether the retrieval flag was cleared because the gap was decided: false, as the rule clears
 *     no flag (it did until 2026-12: a lexical judge's gap cleared more real retrieval misses than not); kept so that
 *     the verdict keeps its v4 shape and earlier verdicts still read
 */
public record KnowledgeGap(boolean flagged, Double score, List<String> evidence, String repairHint,
        boolean clearedRetrieve) {

    public KnowledgeGap {
        evidence = evidence == null ? List.of() : List.copyOf(evidence);
    }

    /** Nothing decided: the checks that would tell were missing (or the verdict predates v2). */
    public static KnowledgeGap undecided() {
        return new KnowledgeGap(false, null, List.of(), null, false);
    }
}
