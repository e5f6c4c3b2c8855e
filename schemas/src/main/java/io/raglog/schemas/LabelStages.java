package io.raglog.schemas;

/**
 * Per-stage ground truth of a run: 1 faulty, 0 sound, null when the pipeline has no such stage or when no log can
 * tell (retrieval for a question the corpus does not answer). A null stage is neither trained on nor scored.
 */
public record LabelStages(Integer rewrite, Integer embed, Integer retrieve, Integer rerank, Integer assemble,
        Integer generate) {

    /** Labels without context assembly (label v1 and v2 lines, where it was not labeled: null, not trained on). */
    public LabelStages(Integer rewrite, Integer embed, Integer retrieve, Integer rerank, Integer generate) {
        this(rewrite, embed, retrieve, rerank, null, generate);
    }

    public Integer get(Stage stage) {
        return switch (stage) {
            case REWRITE -> rewrite;
            case EMBED -> embed;
            case RETRIEVE -> retrieve;
            case RERANK -> rerank;
            case ASSEMBLE -> assemble;
            case GENERATE -> generate;
        };
    }

    public boolean faulty(Stage stage) {
        Integer value = get(stage);
        return value != null && value == 1;
    }

    public boolean anyFaulty() {
        for (Stage stage : Stage.values()) {
            if (faulty(stage)) {
                return true;
            }
        }
        return false;
    }
}
