package io.raglog.simulator.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** Hosted rerank APIs: Cohere v2, Jina v1, Voyage v1. Each returns indexes into the documents it was sent. */
public final class Rerankers {

    /** One result: the index of the document in the request, its text, its relevance score. */
    public record Result(int index, String text, double score) {}

    private Rerankers() {}

    public static ObjectNode cohereRequest(String model, String query, List<String> documents, int topN) {
        ObjectNode body = Nodes.object().put("model", model).put("query", query);
        body.set("documents", Nodes.strings(documents));
        body.put("top_n", topN);
        return body;
    }

    public static ObjectNode cohereResponse(String id, List<Result> results, int searchUnits) {
        ObjectNode body = Nodes.object().put("id", id);
        ArrayNode out = body.putArray("results");
        results.forEach(r -> out.addObject().put("index", r.index()).put("relevance_score", r.score()));
        ObjectNode meta = body.putObject("meta");
        meta.putObject("api_version").put("version", "2");
        meta.putObject("billed_units").put("search_units", searchUnits);
        return body;
    }

    public static ObjectNode cohereRateLimit() {
        return Nodes.object().put("id", "rate-limited").put("message",
                "You are using a Trial key, which is limited to 10 API calls / minute. You can continue to use the"
                        + " Trial key for free or upgrade to a Production key with higher rate limits.");
    }

    public static ObjectNode jinaRequest(String model, String query, List<String> documents, int topN) {
        ObjectNode body = Nodes.object().put("model", model).put("query", query).put("top_n", topN);
        body.set("documents", Nodes.strings(documents));
        body.put("return_documents", true);
        return body;
    }

    public static ObjectNode jinaResponse(String model, List<Result> results, int totalTokens) {
        ObjectNode body = Nodes.object().put("model", model);
        body.putObject("usage").put("total_tokens", totalTokens);
        ArrayNode out = body.putArray("results");
        for (Result r : results) {
            ObjectNode item = out.addObject().put("index", r.index());
            item.putObject("document").put("text", r.text());
            item.put("relevance_score", r.score());
        }
        return body;
    }

    public static ObjectNode jinaRateLimit() {
        return Nodes.object().put("detail", "Too many requests: rate limit of 500 RPM exceeded for this API key");
    }

    /** @param topK null to have every document scored and returned in order (the caller cuts) */
    public static ObjectNode voyageRequest(String model, String query, List<String> documents, Integer topK) {
        ObjectNode body = Nodes.object().put("query", query);
        body.set("documents", Nodes.strings(documents));
        body.put("model", model);
        if (topK != null) {
            body.put("top_k", topK);
        }
        body.put("truncation", true);
        return body;
    }

    public static ObjectNode voyageResponse(String model, List<Result> results, int totalTokens) {
        ObjectNode body = Nodes.object().put("object", "list");
        ArrayNode data = body.putArray("data");
        results.forEach(r -> data.addObject().put("relevance_score", r.score()).put("index", r.index()));
        body.put("model", model);
        body.putObject("usage").put("total_tokens", totalTokens);
        return body;
    }

    public static ObjectNode voyageRateLimit() {
        return Nodes.object().put("detail", "You have exceeded the rate limit of 2000 RPM. Please retry later.");
    }
}
