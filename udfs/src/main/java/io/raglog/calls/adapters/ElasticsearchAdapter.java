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
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Elasticsearch and OpenSearch {@code /{index}/_search}. A kNN search is a retrieval wherever the kNN sits: ES 8's
 * top-level {@code knn: {field, query_vector, k, num_candidates}} (or its {@code query_vector_builder} with the
 * query text), ES 8.12's {@code query.knn}, a {@code retriever} tree, OpenSearch's {@code query.knn.{field}.{vector,
 * k}}, possibly inside {@code bool} or {@code hybrid}. A search without kNN but with a text query ({@code match},
 * {@code multi_match}, {@code query_string}, OpenSearch {@code neural}) is a retrieval with query text. Hits are
 * {@code hits.hits[]{_id, _score, _source}}. {@code _bulk} and document writes are index building.
 */
public final class ElasticsearchAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    /** Elasticsearch's own default page size when a search gives no {@code size}. */
    private static final int DEFAULT_SIZE = 10;

    private static final Set<String> WRITE_APIS = Set.of("_bulk", "_doc", "_create", "_update", "_update_by_query",
            "_delete_by_query", "_refresh", "_flush");

    private static final Set<String> ADMIN_APIS = Set.of("_cluster", "_cat", "_nodes", "_mapping", "_settings",
            "_count", "_stats", "_aliases", "_alias", "_index_template", "_ingest", "_security", "_license",
            "_tasks", "_ml", "_plugins", "_inference");

    /** Text query clauses and the key holding the text when the clause is an object. */
    private static final List<String> TEXT_CLAUSES = List.of("match", "match_phrase", "multi_match", "query_string",
            "simple_query_string", "semantic", "neural", "combined_fields");

    @Override
    public String name() {
        return "elasticsearch";
    }

    @Override
    public boolean accepts(CallEvent call) {
        for (String segment : Endpoint.of(call).segments()) {
            if (segment.equals("_search") || segment.equals("_knn_search") || WRITE_APIS.contains(segment)
                    || ADMIN_APIS.contains(segment)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        Endpoint e = Endpoint.of(call);
        List<String> segments = e.segments();
        boolean search = segments.contains("_search") || segments.contains("_knn_search");
        if (!search || segments.contains("scroll") || segments.contains("template")) {
            for (String s : segments) {
                if (WRITE_APIS.contains(s)) {
                    return new NotARunCall(name(), "index building: " + s + " (" + e.method() + " " + e.path() + ")");
                }
            }
            return new NotARunCall(name(), "cluster or index admin (" + e.method() + " " + e.path() + ")");
        }
        JsonNode request = Bodies.request(call);
        if (request.isMissingNode() || (request.isObject() && request.isEmpty())) {
            return new NotARunCall(name(), "search without a body: a listing, not a query");
        }
        if (!request.isObject()) {
            throw new AdapterException("request body is " + Bodies.describe(request) + ", expected a search");
        }
        Knn knn = findKnn(request);
        String text = knn != null && knn.text != null ? knn.text : findText(request.get("query"));
        if (text == null && request.has("retriever")) {
            text = findText(request.get("retriever"));
        }
        if (knn == null && text == null) {
            return new NotARunCall(name(), "search without a vector or text query (a listing or a filter)");
        }
        Integer topK = knn != null && knn.k != null ? knn.k : Bodies.integer(request, "size");
        if (topK == null) {
            topK = DEFAULT_SIZE;
        }
        List<Passage> passages = Bodies.succeeded(call) ? hits(Bodies.responseJson(call)) : List.of();
        String index = e.segmentBefore(segments.contains("_search") ? "_search" : "_knn_search");
        return new RetrieveDetail(name(), "elasticsearch", index, text, knn == null ? null : knn.vector, topK, passages);
    }

    private record Knn(float[] vector, String text, Integer k) {}

    /** The first kNN clause anywhere in the request, ES or OpenSearch shaped. */
    private static Knn findKnn(JsonNode node) throws AdapterException {
        if (node == null) {
            return null;
        }
        if (node.isArray()) {
            for (JsonNode n : node) {
                Knn k = findKnn(n);
                if (k != null) {
                    return k;
                }
            }
            return null;
        }
        if (!node.isObject()) {
            return null;
        }
        JsonNode knn = node.get("knn");
        if (knn != null) {
            Knn k = readKnn(knn.isArray() && knn.size() > 0 ? knn.get(0) : knn);
            if (k != null) {
                return k;
            }
        }
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            if (f.getKey().equals("_source") || f.getKey().equals("knn")) {
                continue;
            }
            Knn k = findKnn(f.getValue());
            if (k != null) {
                return k;
            }
        }
        return null;
    }

    private static Knn readKnn(JsonNode knn) throws AdapterException {
        if (!knn.isObject()) {
            return null;
        }
        if (knn.has("query_vector") || knn.has("query_vector_builder")) { // Elasticsearch
            JsonNode v = knn.get("query_vector");
            float[] vector = v == null || v.isNull() ? null : Vectors.fromArray(v, "knn.query_vector");
            String text = Bodies.label(knn.path("query_vector_builder").path("text_embedding"), "model_text");
            Integer k = Bodies.integer(knn, "k");
            return new Knn(vector, text, k);
        }
        Iterator<Map.Entry<String, JsonNode>> fields = knn.fields(); // OpenSearch: {field: {vector, k}}
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            JsonNode v = f.getValue().get("vector");
            if (v != null && v.isArray()) {
                return new Knn(Vectors.fromArray(v, "knn." + f.getKey() + ".vector"), null,
                        Bodies.integer(f.getValue(), "k"));
            }
        }
        return null;
    }

    /** The text of the first full-text clause in a query tree, or null when there is none. */
    private static String findText(JsonNode node) {
        if (node == null) {
            return null;
        }
        if (node.isArray()) {
            for (JsonNode n : node) {
                String t = findText(n);
                if (t != null) {
                    return t;
                }
            }
            return null;
        }
        if (!node.isObject()) {
            return null;
        }
        for (String clause : TEXT_CLAUSES) {
            JsonNode c = node.get(clause);
            if (c != null && c.isObject()) {
                String t = clauseText(c);
                if (t != null) {
                    return t;
                }
            }
        }
        Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            if (f.getKey().equals("filter") || f.getKey().equals("must_not")) {
                continue; // filters narrow the search, they are not what the user asked
            }
            String t = findText(f.getValue());
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    /** {@code {query: "..."}}, {@code {field: "..."}}, {@code {field: {query: "..."}}} or OpenSearch neural's query_text. */
    private static String clauseText(JsonNode clause) {
        if (clause.path("query").isTextual()) {
            return clause.get("query").textValue();
        }
        Iterator<Map.Entry<String, JsonNode>> fields = clause.fields();
        while (fields.hasNext()) {
            JsonNode v = fields.next().getValue();
            if (v.isTextual()) {
                return v.textValue();
            }
            for (String key : List.of("query", "query_text")) {
                if (v.path(key).isTextual()) {
                    return v.get(key).textValue();
                }
            }
        }
        return null;
    }

    private static List<Passage> hits(JsonNode reply) throws AdapterException {
        JsonNode hits = reply.path("hits").get("hits");
        if (hits == null || !hits.isArray()) {
            throw new AdapterException("'hits.hits' is " + Bodies.describe(hits) + ", expected an array");
        }
        List<Passage> out = new ArrayList<>();
        int rank = 1;
        for (JsonNode h : hits) {
            String text = PassageText.find(h.get("_source"));
            if (text == null) {
                text = PassageText.find(h.get("fields")); // stored fields when _source was disabled
            }
            out.add(new Passage(Passages.id(h.get("_id"), text), text, Bodies.number(h, "_score"), rank++));
        }
        return List.copyOf(out);
    }
}
