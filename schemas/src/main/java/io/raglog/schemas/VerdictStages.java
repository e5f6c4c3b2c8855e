package io.raglog.schemas;

/**
 * A verdict's stages, each always written (an absent stage says so), so readers never guess a missing key. A verdict
 * written before the assemble stage existed (v1, v2) is read with it absent.
 */
public record VerdictStages(StageVerdict rewrite, StageVerdict embed, StageVerdict retrieve, StageVerdict rerank,
        StageVerdict assemble, StageVerdict generate) {

    public VerdictStages {
        if (assemble == null) {
            assemble = StageVerdict.absent();
        }
    }

    /** The stages of a verdict without context assembly. */
    public VerdictStages(StageVerdict rewrite, StageVerdict embed, StageVerdict retrieve, StageVerdict rerank,
            StageVerdict generate) {
        this(rewrite, embed, retrieve, rerank, StageVerdict.absent(), generate);
    }

    public StageVerdict get(Stage stage) {
        return switch (stage) {
            case REWRITE -> rewrite;
            case EMBED -> embed;
            case RETRIEVE -> retrieve;
            case RERANK -> rerank;
            case ASSEMBLE -> assemble;
            case GENERATE -> generate;
        };
    }
}
