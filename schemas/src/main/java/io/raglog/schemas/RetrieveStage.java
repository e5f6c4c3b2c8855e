package io.raglog.schemas;

import java.util.List;

/**
 * Vector retrieval.
 *
 * @param query the query text when the store was sent text (hybrid / kNN with query text); null for pure vectors
 * @param reconstructed true when no retrieval call was logged (in-process vector store) and the passages were
 *     rebuilt from the reranker's input or the generator's context
 */
public record RetrieveStage(boolean present, long latencyMs, List<String> callIds, String store, String query,
        Integer topK, List<Passage> passages, boolean reconstructed) implements StageRecord {

    public static RetrieveStage absent() {
        return new RetrieveStage(false, 0, List.of(), null, null, null, List.of(), false);
    }
}
