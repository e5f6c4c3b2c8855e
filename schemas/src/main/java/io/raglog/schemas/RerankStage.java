package io.raglog.schemas;

import java.util.List;

/**
 * The reranker: the passages it was given, in input order, and those it kept, in its order with its scores.
 *
 * @param topN the cut-off the pipeline asked for, or the number of passages kept when it did not say
 */
public record RerankStage(boolean present, long latencyMs, List<String> callIds, String model, String query,
        List<Passage> input, List<Passage> output, Integer topN) implements StageRecord {

    public static RerankStage absent() {
        return new RerankStage(false, 0, List.of(), null, null, List.of(), List.of(), null);
    }
}
