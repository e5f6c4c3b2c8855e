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
 * Pinecone's data plane, on the index's own host ({@code {index}-{project}.svc.{env}.pinecone.io}).
 * {@code POST /query} ({@code vector}, {@code topK}, {@code includeMetadata}; reply
 * {@code matches: [{id, score, metadata}]}) is a retrieval, as is integrated-inference search
 * ({@code /records/namespaces/{ns}/search}, query text in {@code query.inputs.text}). Upserts, deletes, fetches
 * and index stats are not run calls.
 */
public final class PineconeAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "pinecone";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        if (e.hostEndsWith(".pinecone.io")) {
            return true;
        }
        // Behind a proxy the host is gone; these paths and camelCase topK are Pinecone's own.
        return e.pathEndsWith("/vectors/upsert") || e.pathEndsWith("/describe_index_stats")
                || e.pathContains("/records/namespaces/")
                || (e.isPost() && e.pathEndsWith("/query") && Bodies.request(call).has("topK"));
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        Endpoint e = Endpoint.of(call);
        if (e.isPost() && e.pathEndsWith("/query")) {
            return query(call, e);
        }
        if (e.isPost() && e.pathContains("/records/namespaces/") && e.pathEndsWith("/search")) {
            return search(call, e);
        }
        if (e.pathContains("/vectors/upsert") || e.pathContains("/vectors/update") || e.pathContains("/vectors/delete")
                || e.pathEndsWith("/upsert")) {
            return new NotARunCall(name(), "index building: vector writes (" + e.path() + ")");
        }
        return new NotARunCall(name(), "index admin or lookup by id (" + e.method() + " " + e.path() + ")");
    }

    private RetrieveDetail query(CallEvent call, Endpoint e) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        JsonNode vector = request.get("vector");
        float[] queryVector = vector == null || vector.isNull() ? null : Vectors.fromArray(vector, "vector");
        Integer topK = Bodies.integer(request, "topK");
        if (topK == null) {
            topK = Bodies.integer(request, "top_k");
        }
        List<Passage> passages = new ArrayList<>();
        if (Bodies.succeeded(call)) {
            JsonNode matches = Bodies.array(Bodies.responseJson(call), "matches");
            int rank = 1;
            for (JsonNode m : matches == null ? List.<JsonNode>of() : matches) {
                String text = PassageText.find(m.get("metadata"));
                passages.add(new Passage(Passages.id(m.get("id"), text), text, Bodies.number(m, "score"), rank++));
            }
        }
        return new RetrieveDetail(name(), "pinecone", indexName(e), null, queryVector, topK, List.copyOf(passages));
    }

    private RetrieveDetail search(CallEvent call, Endpoint e) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        JsonNode query = Bodies.object(request, "query");
        if (query == null) {
            throw new AdapterException("'query' is missing");
        }
        String text = Bodies.label(query.path("inputs"), "text");
        JsonNode vector = query.path("vector").path("values");
        float[] queryVector = vector.isArray() ? Vectors.fromArray(vector, "query.vector.values") : null;
        Integer topK = Bodies.integer(query, "top_k");
        List<Passage> passages = new ArrayList<>();
        if (Bodies.succeeded(call)) {
            JsonNode hits = Bodies.responseJson(call).path("result").path("hits");
            int rank = 1;
            for (JsonNode h : hits) {
                String passage = PassageText.find(h.get("fields"));
                passages.add(new Passage(Passages.id(h.get("_id"), passage), passage, Bodies.number(h, "_score"),
                        rank++));
            }
        }
        return new RetrieveDetail(name(), "pinecone", indexName(e), text, queryVector, topK, List.copyOf(passages));
    }

    /** The index name from a serverless / pod host {@code {index}-{7-char project id}.svc...}, else null. */
    static String indexName(Endpoint e) {
        if (!e.hostEndsWith(".pinecone.io")) {
            return null;
        }
        String first = e.host().substring(0, e.host().indexOf('.'));
        int dash = first.lastIndexOf('-');
        return dash > 0 ? first.substring(0, dash) : first;
    }
}
