package io.raglog.schemas;

/** A verdict's five stages, each always written (an absent stage says so), so readers never guess a missing key. */
public record VerdictStages(StageVerdict rewrite, StageVerdict embed, StageVerdict retrieve, StageVerdict rerank,
        StageVerdict generate) {

    public StageVerdict get(Stage stage) {
        return switch (stage) {
            case REWRITE -> rewrite;
            case EMBED -> embed;
            case RETRIEVE -> retrieve;
            case RERANK -> rerank;
            case GENERATE -> generate;
        };
    }
}
