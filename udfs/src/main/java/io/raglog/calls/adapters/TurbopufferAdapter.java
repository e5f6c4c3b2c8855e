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
 * turbopuffer ({@code https://{region}.turbopuffer.com}, {@code api.turbopuffer.com}): {@code POST
 * /v2/namespaces/{ns}/query} (and v1's, and v1's older {@code /v1/vectors/{ns}/query}) is a retrieval. The query
 * ranks by {@code rank_by}, {@code ["vector", "ANN", [...]]} for a vector or {@code ["text", "BM25", "..."]} for a
 * text, or in v1 by a bare {@code vector}; {@code top_k} (or {@code limit}) the top k. The reply is
 * {@code rows: [{id, $dist, ...attributes}]}, v1's a bare array {@code [{id, dist, attributes}]}; the passage's text
 * is an attribute (LangChain.js's {@code __lc_page_content}, LangChain's Python {@code content}). Several queries in
 * one call ({@code queries}, answered in {@code results}) are read by their first vector query, the branch an
 * embedding call produced, else their first. Writes ({@code POST /v2/namespaces/{ns}} with {@code upsert_rows},
 * {@code upsert_columns}, {@code patch_rows}, {@code deletes}; v1's {@code upserts}, {@code ids}, {@code vectors})
 * build the index; a query that ranks by no vector and no text is a lookup, and schema, metadata and namespace
 * listing are admin: neither is a run call.
 *
 * <p>Behind a proxy the host is gone: {@code /v1/namespaces/{ns}} and {@code /v2/namespaces/{ns}}, alone or with
 * {@code /query}, are read as turbopuffer's (Pinecone's namespaced paths are under {@code /records/}).
 */
public final class TurbopufferAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "turbopuffer";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        if (e.hostEndsWith(".turbopuffer.com")) {
            return true;
        }
        List<String> segs = e.segments();
        int at = namespacesAt(segs);
        if (at < 1 || !segs.get(at).equalsIgnoreCase("namespaces")) {
            return false; // v1's older "vectors" only on turbopuffer's host: /v1/vectors/upsert may be Pinecone's
        }
        String version = segs.get(at - 1);
        return (version.equalsIgnoreCase("v1") || version.equalsIgnoreCase("v2"))
                && (segs.size() == at + 2 || (segs.size() == at + 3 && segs.get(at + 2).equalsIgnoreCase("query")));
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        Endpoint e = Endpoint.of(call);
        List<String> segs = e.segments();
        int at = namespacesAt(segs);
        String namespace = at >= 0 && at + 1 < segs.size() ? segs.get(at + 1) : null;
        if (e.isPost() && namespace != null && segs.size() == at + 3 && e.pathEndsWith("/query")) {
            return query(call, namespace);
        }
        if (e.isPost() && namespace != null && segs.size() == at + 2) {
            return new NotARunCall(name(), "index building: document writes (" + e.path() + ")");
        }
        return new NotARunCall(name(), "namespace admin or listing (" + e.method() + " " + e.path() + ")");
    }

    private CallDetail query(CallEvent call, String namespace) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        JsonNode queries = Bodies.array(request, "queries");
        int chosen = queries == null ? -1 : chosenQuery(queries);
        JsonNode query = chosen < 0 ? request : queries.get(chosen);
        Ranking ranking = ranking(query);
        if (ranking == null) {
            return new NotARunCall(name(), "lookup by filter or attribute order, no similarity query");
        }
        Integer topK = Bodies.integer(query, "top_k");
        if (topK == null) {
            topK = query.path("limit").isObject() ? Bodies.integer(query.get("limit"), "total")
                    : Bodies.integer(query, "limit");
        }
        List<Passage> passages = List.of();
        if (Bodies.succeeded(call)) {
            JsonNode reply = Bodies.responseJson(call);
            JsonNode rows = chosen < 0 ? reply : Bodies.requireArray(reply, "results").path(chosen);
            passages = passages(rows.isObject() ? Bodies.requireArray(rows, "rows") : rows, ranking.vector != null);
        }
        return new RetrieveDetail(name(), "turbopuffer", namespace, ranking.text, ranking.vector, topK, passages);
    }

    /** What a query ranks by: a vector, a text, or null for neither (an attribute order, a filter alone). */
    private record Ranking(float[] vector, String text) {}

    private static Ranking ranking(JsonNode query) throws AdapterException {
        JsonNode vector = query.get("vector");
        if (vector != null && vector.isArray()) {
            return new Ranking(Vectors.fromArray(vector, "vector"), null); // v1's ranking by a bare vector
        }
        return rankBy(query.get("rank_by"));
    }

    /**
     * {@code [attribute, "ANN", vector]} (an array, or base64 float32), {@code [attribute, "BM25", text]}, or a
     * combination of BM25 rankings ({@code ["Sum", [...]]}, {@code ["Product", weight, ranking]}), whose first text is
     * read.
     */
    private static Ranking rankBy(JsonNode rankBy) throws AdapterException {
        if (rankBy == null || !rankBy.isArray()) {
            return null;
        }
        if (rankBy.size() == 3 && rankBy.get(0).isTextual()) {
            String method = rankBy.get(1).asText("");
            if (method.equals("ANN") && (rankBy.get(2).isArray() || rankBy.get(2).isTextual())) {
                return new Ranking(Vectors.decode(rankBy.get(2), "rank_by[2]"), null);
            }
            if (method.equals("BM25") && rankBy.get(2).isTextual()) {
                return new Ranking(null, rankBy.get(2).textValue());
            }
        }
        for (JsonNode part : rankBy) {
            Ranking r = part.isArray() ? rankBy(part) : null;
            if (r != null) {
                return r;
            }
        }
        return null;
    }

    /** The first query of several that ranks by a vector, else the first. */
    private static int chosenQuery(JsonNode queries) throws AdapterException {
        if (queries.isEmpty()) {
            throw new AdapterException("'queries' is empty");
        }
        for (int i = 0; i < queries.size(); i++) {
            Ranking r = ranking(queries.get(i));
            if (r != null && r.vector != null) {
                return i;
            }
        }
        return 0;
    }

    /**
     * The rows, best first. A vector query's {@code $dist} is a distance (cosine distance, squared euclidean), made
     * {@code 1 - distance} as Chroma's are so that higher is closer, as every store's score; a BM25 query's is the
     * BM25 score itself.
     */
    private static List<Passage> passages(JsonNode rows, boolean byVector) throws AdapterException {
        if (!rows.isArray()) {
            throw new AdapterException("response is " + Bodies.describe(rows) + ", expected rows");
        }
        List<Passage> out = new ArrayList<>(rows.size());
        for (JsonNode row : rows) {
            JsonNode attributes = row.path("attributes").isObject() ? row.get("attributes") : row;
            String text = PassageText.find(attributes);
            Double dist = Bodies.number(row, row.has("$dist") ? "$dist" : "dist");
            Double score = dist == null || !byVector ? dist : 1.0 - dist;
            out.add(new Passage(Passages.id(row.get("id"), text), text, score, out.size() + 1));
        }
        return List.copyOf(out);
    }

    /** Where {@code namespaces} (v1's older {@code vectors}) is in the path, or -1. */
    private static int namespacesAt(List<String> segs) {
        for (int i = 0; i < segs.size(); i++) {
            if (segs.get(i).equalsIgnoreCase("namespaces") || segs.get(i).equalsIgnoreCase("vectors")) {
                return i;
            }
        }
        return -1;
    }
}
