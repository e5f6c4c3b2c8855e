package io.raglog.calls;

import java.util.List;

/**
 * A rerank call.
 *
 * @param documents the documents sent, in request order
 * @param results the reranker's output, best first: index into {@code documents} and its relevance score (null for a
 *     reranker that gives an order alone, such as an LLM asked for one)
 * @param topN the cut-off the request asked for, null when it did not say
 */
public record RerankDetail(String adapter, String model, String query, List<String> documents,
        List<RerankResult> results, Integer topN) implements CallDetail {

    public record RerankResult(int index, Double score) {}
}
