package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.RetrieveDetail;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Passage;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Milvus's and Zilliz Cloud's RESTful API: v2's {@code /v2/vectordb/entities/search} and {@code …/hybrid_search}, v1's
 * {@code /v1/vector/search}. A search is a retrieval by the first query's vector ({@code data[0]}; v1's
 * {@code vector}; a hybrid search's first sub-search) or, for a full-text (BM25) search, its text; {@code limit} is
 * the top k. Hits come back flat in {@code data}, each with its {@code distance} and the output fields inline (the
 * passage's text among them, found as other stores' payloads are, {@link PassageText}); a search of several vectors
 * returns their hits one query after another, so no more than {@code limit} are read. Whether {@code distance} is a
 * distance or a similarity is the metric's: the search's {@code metricType} when it names one, else the order
 * ({@link DistanceOrder}).
 *
 * <p>Milvus answers an error with HTTP 200 and a {@code code} other than 0 (v1: 200) beside its {@code message}: such a
 * search is read as one that returned nothing. Inserts, upserts, deletes and bulk imports build the index; queries and
 * gets by id or filter are lookups; collections, indexes, partitions and users are admin. pymilvus and the Node SDK
 * speak gRPC by default and leave no call to read.
 */
public final class MilvusAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    /** Metrics whose numbers grow with closeness; the others (L2, Hamming, Jaccard) are distances. */
    private static final Set<String> SIMILARITY_METRICS = Set.of("IP", "COSINE", "BM25");

    /** The names a collection's primary key is usually given (LangChain's {@code pk}), in the order tried. */
    private static final List<String> KEY_FIELDS = List.of("id", "pk", "primary_key", "_id");

    @Override
    public String name() {
        return "milvus";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.pathContains("/v2/vectordb/") || e.pathContains("/v1/vector/");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        Endpoint e = Endpoint.of(call);
        if (e.isPost() && (e.pathEndsWith("/entities/search") || e.pathEndsWith("/entities/hybrid_search")
                || e.pathEndsWith("/v1/vector/search"))) {
            return search(call, e);
        }
        if (e.pathEndsWith("/insert") || e.pathEndsWith("/upsert") || e.pathEndsWith("/delete")
                || e.pathContains("/jobs/import/")) {
            return new NotARunCall(name(), "index building: entity writes (" + e.path() + ")");
        }
        if (e.pathEndsWith("/query") || e.pathEndsWith("/get")) {
            return new NotARunCall(name(), "lookup by id or filter (" + e.path() + ")");
        }
        return new NotARunCall(name(), "collection or cluster admin (" + e.method() + " " + e.path() + ")");
    }

    private RetrieveDetail search(CallEvent call, Endpoint e) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        JsonNode query = request;
        JsonNode subSearches = request.get("search");
        if (subSearches != null && subSearches.isArray() && !subSearches.isEmpty()) {
            query = subSearches.get(0); // a hybrid search: its first sub-search's vector is the question's
        }
        JsonNode first = query.has("data") ? Bodies.requireArray(query, "data").path(0) : query.path("vector");
        float[] queryVector = null;
        String queryText = null;
        if (first.isTextual()) {
            queryText = first.textValue(); // full-text search: Milvus scores the text by BM25
        } else if (first.isArray()) {
            queryVector = Vectors.decode(first, query.has("data") ? "data[0]" : "vector");
        } else {
            throw new AdapterException("a search without a vector or a text in 'data' or 'vector'");
        }
        Integer limit = Bodies.integer(request, "limit");
        List<Passage> passages = Bodies.succeeded(call) ? hits(Bodies.responseJson(call), limit, metric(query))
                : List.of();
        return new RetrieveDetail(name(), "milvus", Bodies.label(request, "collectionName"), queryText, queryVector,
                limit, passages);
    }

    /** The metric the search names, upper case; null when it names none. */
    private static String metric(JsonNode query) {
        String metric = Bodies.label(query.path("searchParams"), "metricType");
        if (metric == null) {
            metric = Bodies.label(query.path("params"), "metric_type");
        }
        return metric == null ? null : metric.toUpperCase(Locale.ROOT);
    }

    private static List<Passage> hits(JsonNode reply, Integer limit, String metric) throws AdapterException {
        JsonNode code = reply.get("code");
        boolean v1 = code != null && code.asInt() == 200;
        if (code != null && code.asInt() != 0 && !v1) {
            return List.of(); // Milvus's error, answered with HTTP 200
        }
        JsonNode data = Bodies.array(reply, "data");
        if (data == null || data.isEmpty()) {
            return List.of();
        }
        int n = limit == null ? data.size() : Math.min(limit, data.size());
        double[] distances = new double[n];
        for (int i = 0; i < n; i++) {
            Double d = Bodies.number(data.get(i), "distance");
            distances[i] = d == null ? 0.0 : d;
        }
        double[] scores = metric == null ? DistanceOrder.scores(distances)
                : SIMILARITY_METRICS.contains(metric) ? distances : DistanceOrder.oneMinus(distances);
        List<Passage> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            JsonNode hit = data.get(i);
            String text = PassageText.find(hit);
            out.add(new Passage(Passages.id(keyOf(hit), text), text, scores[i], i + 1));
        }
        return List.copyOf(out);
    }

    private static JsonNode keyOf(JsonNode hit) {
        for (String field : KEY_FIELDS) {
            JsonNode key = hit.get(field);
            if (key != null && !key.isNull()) {
                return key;
            }
        }
        return null;
    }
}
