package io.raglog.schemas;

/**
 * One object per stage; an absent stage is present=false with empty fields, never null. A run written before the
 * assemble stage existed ({@code raglog.run/v1}) is read with it absent.
 */
public record RunStages(
        RewriteStage rewrite,
        EmbedStage embed,
        RetrieveStage retrieve,
        RerankStage rerank,
        AssembleStage assemble,
        GenerateStage generate) {

    public RunStages {
        if (assemble == null) {
            assemble = AssembleStage.absent();
        }
    }

    /** The stages without context assembly (a run raglog cannot see it in, or one written before it existed). */
    public RunStages(RewriteStage rewrite, EmbedStage embed, RetrieveStage retrieve, RerankStage rerank,
            GenerateStage generate) {
        this(rewrite, embed, retrieve, rerank, AssembleStage.absent(), generate);
    }

    public RunStages withAssemble(AssembleStage assembled) {
        return new RunStages(rewrite, embed, retrieve, rerank, assembled, generate);
    }

    public StageRecord get(Stage stage) {
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
