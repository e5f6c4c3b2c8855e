package io.raglog.schemas;

import java.util.List;

/**
 * @param piece the needed information, in a few words ("operating cash flow for 2023")
 * @param passageIds the passages it was found in (empty when nowhere)
 * @param subject the piece in the form the checks' {@link Fact facts} name it ({@code date:2023}, {@link Fact#ANSWER}),
 *     so a verdict joins what the evidence flow says of it with what the other checks say; null when the judge named
 *     the piece only in words
 */
public record EvidencePiece(String piece, EvidenceLocation location, AnswerUse answer, List<String> passageIds,
        String subject) {

    public EvidencePiece(String piece, EvidenceLocation location, AnswerUse answer, List<String> passageIds) {
        this(piece, location, answer, passageIds, null);
    }
}
