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

/**
 * Qdrant's REST API. Retrievals are {@code POST /collections/{c}/points/search} ({@code vector}, plain or named,
 * {@code limit}; reply {@code result: [{id, score, payload}]}) and the Query API {@code /points/query}
 * ({@code query} as a vector, {@code {nearest: ...}}, or a fusion over {@code prefetch}; reply
 * {@code result.points}). Point writes are index building; collection and point admin is not a run call either.
 */
public final class QdrantAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    /** Qdrant's own default when a Query API request gives no limit. */
    private static final int QUERY_DEFAULT_LIMIT = 10;

    @Override
    public String name() {
        return "qdrant";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        if (e.hostEndsWith(".pinecone.io")) {
            return false; // Pinecone's control plane lists its collections too (api.pinecone.io/collections)
        }
        // Chroma (/api/v1|v2/...collections) and Milvus (/v2/vectordb/collections) use the same word.
        return e.segments().stream().anyMatch("collections"::equalsIgnoreCase)
                && !e.pathContains("/api/v1/") && !e.pathContains("/api/v2/") && !e.pathContains("/vectordb/");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        Endpoint e = Endpoint.of(call);
        String collection = e.segmentAfter("collections");
        if (e.isPost() && (e.pathEndsWith("/points/search") || e.pathEndsWith("/points/query"))) {
            return retrieval(call, collection, e.pathEndsWith("/points/query"), false);
        }
        if (e.isPost() && (e.pathEndsWith("/points/search/batch") || e.pathEndsWith("/points/query/batch"))) {
            return retrieval(call, collection, e.pathEndsWith("/points/query/batch"), true);
        }
        return new NotARunCall(name(), whyNotARun(e));
    }

    private static String whyNotARun(Endpoint e) {
        if ((e.pathEndsWith("/points") && !e.isPost()) || e.pathEndsWith("/points/batch")
                || e.pathEndsWith("/points/payload") || e.pathEndsWith("/points/vectors")
                || e.pathEndsWith("/points/delete")) {
            return "index building: point writes (" + e.method() + " " + e.path() + ")";
        }
        if (e.pathEndsWith("/points/scroll") || e.pathEndsWith("/points/count") || e.pathEndsWith("/points")) {
            return "point listing or lookup by id, no similarity query";
        }
        return "collection admin (" + e.method() + " " + e.path() + ")";
    }

    /**
     * @param batch a {@code /batch} request: the first search is read (a multi-query retriever sends one search
     *     per rewrite; assembly sees the first, the others share its shape)
     */
    private RetrieveDetail retrieval(CallEvent call, String collection, boolean queryApi, boolean batch)
            throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        if (batch) {
            JsonNode searches = Bodies.requireArray(request, "searches");
            if (searches.isEmpty()) {
                throw new AdapterException("'searches' is empty");
            }
            request = searches.get(0);
        }
        float[] vector;
        String text;
        Integer limit;
        if (queryApi) {
            QueryPart part = queryPart(request.get("query"));
            if (part.vector == null && part.text == null) {
                part = fromPrefetch(request.get("prefetch"));
            }
            vector = part.vector;
            text = part.text;
            limit = Bodies.integer(request, "limit");
            limit = limit == null ? QUERY_DEFAULT_LIMIT : limit;
        } else {
            vector = searchVector(request.get("vector"));
            text = null;
            limit = Bodies.integer(request, "limit");
        }
        List<Passage> passages = new ArrayList<>();
        if (Bodies.succeeded(call)) {
            JsonNode result = Bodies.responseJson(call).get("result");
            if (batch && result != null && result.isArray() && result.size() > 0) {
                result = result.get(0);
            }
            JsonNode points = result != null && result.isObject() ? result.get("points") : result;
            if (points == null || !points.isArray()) {
                throw new AdapterException("'result' is " + Bodies.describe(points) + ", expected scored points");
            }
            int rank = 1;
            for (JsonNode p : points) {
                String passage = PassageText.find(p.get("payload"));
                passages.add(new Passage(Passages.id(p.get("id"), passage), passage, Bodies.number(p, "score"), rank++));
            }
        }
        return new RetrieveDetail(name(), "qdrant", collection, text, vector, limit, List.copyOf(passages));
    }

    /** {@code vector}: an array, or a named vector {@code {name, vector}}; sparse vectors carry no dense query. */
    private static float[] searchVector(JsonNode v) throws AdapterException {
        if (v == null || v.isNull()) {
            throw new AdapterException("'vector' is missing");
        }
        if (v.isArray()) {
            return Vectors.fromArray(v, "vector");
        }
        if (v.isObject() && v.path("vector").isArray()) {
            return Vectors.fromArray(v.get("vector"), "vector.vector");
        }
        if (v.isObject()) {
            return null;
        }
        throw new AdapterException("'vector' is " + Bodies.describe(v) + ", expected a vector");
    }

    private record QueryPart(float[] vector, String text) {}

    private static QueryPart queryPart(JsonNode q) throws AdapterException {
        if (q == null || q.isNull()) {
            return new QueryPart(null, null);
        }
        if (q.isArray()) {
            // A dense vector; an array of arrays is a multi-vector (ColBERT) query with no single vector.
            return q.size() > 0 && q.get(0).isNumber() ? new QueryPart(Vectors.fromArray(q, "query"), null)
                    : new QueryPart(null, null);
        }
        if (q.isObject()) {
            if (q.has("nearest")) {
                return queryPart(q.get("nearest"));
            }
            if (q.path("text").isTextual()) {
                return new QueryPart(null, q.get("text").textValue()); // server-side inference (Document)
            }
        }
        return new QueryPart(null, null); // a point id, a fusion, a recommend-by-example
    }

    private static QueryPart fromPrefetch(JsonNode prefetch) throws AdapterException {
        if (prefetch == null || prefetch.isNull()) {
            return new QueryPart(null, null);
        }
        List<JsonNode> stages = new ArrayList<>();
        if (prefetch.isArray()) {
            prefetch.forEach(stages::add);
        } else {
            stages.add(prefetch);
        }
        String text = null;
        for (JsonNode stage : stages) {
            QueryPart part = queryPart(stage.get("query"));
            if (part.vector == null && part.text == null) {
                part = fromPrefetch(stage.get("prefetch"));
            }
            if (part.vector != null) {
                return part; // hybrid search: the dense branch is the one an embedding call produced
            }
            text = text == null ? part.text : text;
        }
        return new QueryPart(null, text);
    }
}
