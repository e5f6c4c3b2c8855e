package io.raglog.schemas;

/** One object per stage; an absent stage is present=false with empty fields, never null. */
public record RunStages(
        RewriteStage rewrite,
        EmbedStage embed,
        RetrieveStage retrieve,
        RerankStage rerank,
        GenerateStage generate) {

    public StageRecord get(Stage stage) {
        return switch (stage) {
            case REWRITE -> rewrite;
            case EMBED -> embed;
            case RETRIEVE -> retrieve;
            case RERANK -> rerank;
            case GENERATE -> generate;
        };
    }
}
