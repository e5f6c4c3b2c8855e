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
 * Chroma's HTTP API, v1 ({@code /api/v1/collections/{id}/query}) and v2
 * ({@code /api/v2/tenants/{t}/databases/{d}/collections/{id}/query}). A query sends {@code query_embeddings} (one
 * per query, clients embed locally) and {@code n_results}; the reply holds {@code ids}, {@code documents},
 * {@code metadatas} and {@code distances} as lists of lists, one list per query embedding. Writes
 * ({@code /add}, {@code /upsert}, {@code /update}, {@code /delete}) are index building; {@code /get} and
 * collection admin are not run calls.
 */
public final class ChromaAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    /** Chroma's default when a query gives no {@code n_results}. */
    private static final int DEFAULT_N_RESULTS = 10;

    @Override
    public String name() {
        return "chroma";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return (e.pathContains("/api/v1/") || e.pathContains("/api/v2/"))
                && (e.pathContains("/collections") || e.pathContains("/tenants") || e.pathEndsWith("/heartbeat")
                        || e.pathEndsWith("/version"));
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        Endpoint e = Endpoint.of(call);
        if (e.isPost() && e.pathEndsWith("/query")) {
            return query(call, e);
        }
        for (String write : List.of("/add", "/upsert", "/update", "/delete")) {
            if (e.pathEndsWith(write)) {
                return new NotARunCall(name(), "index building: collection " + write.substring(1));
            }
        }
        if (e.pathEndsWith("/get") || e.pathEndsWith("/count")) {
            return new NotARunCall(name(), "lookup by id or filter, no similarity query");
        }
        return new NotARunCall(name(), "collection or server admin (" + e.method() + " " + e.path() + ")");
    }

    private RetrieveDetail query(CallEvent call, Endpoint e) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        JsonNode embeddings = Bodies.array(request, "query_embeddings");
        float[] vector = null;
        if (embeddings != null && embeddings.size() > 0) {
            // Several query embeddings are several searches in one call; the first is the one read.
            vector = Vectors.decode(embeddings.get(0), "query_embeddings[0]");
        }
        String text = null;
        JsonNode texts = Bodies.array(request, "query_texts");
        if (texts != null && texts.size() > 0 && texts.get(0).isTextual()) {
            text = texts.get(0).textValue();
        }
        if (vector == null && text == null) {
            throw new AdapterException("query has neither 'query_embeddings' nor 'query_texts'");
        }
        Integer n = Bodies.integer(request, "n_results");
        List<Passage> passages = Bodies.succeeded(call) ? passages(Bodies.responseJson(call)) : List.of();
        return new RetrieveDetail(name(), "chroma", e.segmentAfter("collections"), text, vector,
                n == null ? DEFAULT_N_RESULTS : n, passages);
    }

    private static List<Passage> passages(JsonNode reply) throws AdapterException {
        JsonNode ids = first(reply, "ids");
        if (ids == null) {
            throw new AdapterException("'ids' is missing");
        }
        JsonNode documents = first(reply, "documents");
        JsonNode metadatas = first(reply, "metadatas");
        JsonNode distances = first(reply, "distances");
        List<Passage> out = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            String text = documents != null && documents.get(i) != null && documents.get(i).isTextual()
                    ? documents.get(i).textValue() : null;
            if (text == null && metadatas != null) {
                text = PassageText.find(metadatas.get(i));
            }
            JsonNode d = distances == null ? null : distances.get(i);
            // Chroma returns distances (lower is closer); 1 - distance keeps "higher is closer" for every store:
            // the cosine similarity in a cosine space, an order-preserving number in l2 and ip spaces.
            Double score = d != null && d.isNumber() ? 1.0 - d.doubleValue() : null;
            out.add(new Passage(Passages.id(ids.get(i), text), text, score, i + 1));
        }
        return List.copyOf(out);
    }

    /** The first query's list of a list-of-lists field, or null when the field was not included. */
    private static JsonNode first(JsonNode reply, String field) throws AdapterException {
        JsonNode lists = Bodies.array(reply, field);
        if (lists == null || lists.isEmpty()) {
            return null;
        }
        JsonNode list = lists.get(0);
        if (list.isNull()) {
            return null;
        }
        if (!list.isArray()) {
            throw new AdapterException("'" + field + "[0]' is " + Bodies.describe(list) + ", expected a list");
        }
        return list;
    }
}
