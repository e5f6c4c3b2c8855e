package io.raglog.schemas;

import java.util.List;

/**
 * @param piece the needed information, in a few words ("operating cash flow for 2023")
 * @param passageIds the passages it was found in (empty when nowhere)
 */
public record EvidencePiece(String piece, EvidenceLocation location, AnswerUse answer, List<String> passageIds) {}
