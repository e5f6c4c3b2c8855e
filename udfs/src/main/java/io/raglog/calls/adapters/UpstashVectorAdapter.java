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
import java.util.Set;

/**
 * Upstash Vector ({@code https://{name}-{region}-vector.upstash.io}), as the Vercel AI templates and LangChain's
 * {@code UpstashVectorStore} use it. {@code POST /query} is a retrieval by {@code vector}, {@code /query-data} one by
 * {@code data}, a text Upstash embeds itself; either may name a namespace after it ({@code /query/{ns}}) and sends
 * {@code topK}, {@code includeMetadata}, {@code includeData}. The reply is {@code result: [{id, score, metadata,
 * data}]}, the passage's text in {@code data} when the index keeps it, else in the metadata (LangChain.js writes it
 * as {@code _pageContentLC}, LangChain's Python as {@code text}). Upserts ({@code /upsert}, {@code /upsert-data}),
 * updates and deletes build the index; fetches, ranges, {@code /info} and resets are not run calls.
 *
 * <p>Behind a proxy the host is gone, and Pinecone's {@code /query} takes {@code topK} too: tried before Pinecone's
 * adapter, this one takes a {@code /query} with a {@code topK} only by what is Upstash's own, a text {@code data} or
 * {@code filter}, an {@code includeData} or {@code includeVectors} (Pinecone's is {@code includeValues}), or a
 * reply's {@code result} list (Pinecone's is {@code matches}). {@code /query-data} and {@code /upsert-data} are its
 * own paths; its other paths ({@code /upsert}, {@code /fetch}) are every store's words, read on its host only.
 */
public final class UpstashVectorAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    /** The operations the path names, last or before a namespace ({@code /query/{ns}}). */
    private static final Set<String> OPERATIONS = Set.of("query", "query-data", "upsert", "upsert-data", "update",
            "delete", "fetch", "range", "reset", "delete-namespace", "info", "list-namespaces");

    private static final Set<String> WRITES = Set.of("upsert", "upsert-data", "update", "delete");

    @Override
    public String name() {
        return "upstash";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        if (e.hostEndsWith("-vector.upstash.io")) {
            return true;
        }
        if (!e.isPost()) {
            return false;
        }
        String operation = operation(e);
        if ("query-data".equals(operation) || "upsert-data".equals(operation)) {
            return true;
        }
        return "query".equals(operation) && upstashQuery(Bodies.request(call), Bodies.response(call));
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        Endpoint e = Endpoint.of(call);
        String operation = operation(e);
        if (e.isPost() && ("query".equals(operation) || "query-data".equals(operation))) {
            return query(call, e);
        }
        if (operation != null && WRITES.contains(operation)) {
            return new NotARunCall(name(), "index building: vector writes (" + e.path() + ")");
        }
        return new NotARunCall(name(), "index admin or lookup by id (" + e.method() + " " + e.path() + ")");
    }

    /** One query, or the first of several sent as an array (several searches in one call, as Qdrant's batch). */
    private RetrieveDetail query(CallEvent call, Endpoint e) throws AdapterException {
        JsonNode request = Bodies.request(call);
        boolean batch = request.isArray();
        if (batch) {
            if (request.isEmpty()) {
                throw new AdapterException("request body is an empty array of queries");
            }
            request = request.get(0);
        }
        if (!request.isObject()) {
            throw new AdapterException("request body is " + Bodies.describe(request) + ", expected a query");
        }
        JsonNode vector = request.get("vector");
        float[] queryVector = vector == null || vector.isNull() ? null : Vectors.decode(vector, "vector");
        String text = Bodies.text(request, "data"); // a query by a sparse vector alone has neither
        List<Passage> passages = new ArrayList<>();
        if (Bodies.succeeded(call)) {
            JsonNode result = Bodies.requireArray(Bodies.responseJson(call), "result");
            for (JsonNode r : batch && result.path(0).isArray() ? result.get(0) : result) {
                String passage = Bodies.label(r, "data");
                if (passage == null) {
                    passage = PassageText.find(r.get("metadata"));
                }
                passages.add(new Passage(Passages.id(r.get("id"), passage), passage, Bodies.number(r, "score"),
                        passages.size() + 1));
            }
        }
        return new RetrieveDetail(name(), "upstash", namespace(e), text, queryVector, Bodies.integer(request, "topK"),
                List.copyOf(passages));
    }

    /** The operation the path names: its last segment, or the one before a namespace; null for any other path. */
    private static String operation(Endpoint e) {
        List<String> segs = e.segments();
        int n = segs.size();
        if (n >= 1 && OPERATIONS.contains(segs.get(n - 1))) {
            return segs.get(n - 1);
        }
        return n >= 2 && OPERATIONS.contains(segs.get(n - 2)) ? segs.get(n - 2) : null;
    }

    /** The namespace after the operation, null for the default one. */
    private static String namespace(Endpoint e) {
        List<String> segs = e.segments();
        return segs.size() >= 2 && OPERATIONS.contains(segs.get(segs.size() - 2)) ? segs.get(segs.size() - 1) : null;
    }

    /** A query with Upstash's {@code topK}, in Upstash's own shape rather than Pinecone's, or answered in it. */
    private static boolean upstashQuery(JsonNode request, JsonNode reply) {
        JsonNode first = request.isArray() ? request.path(0) : request;
        return first.has("topK") && (first.path("data").isTextual() || first.path("filter").isTextual()
                || first.has("includeData") || first.has("includeVectors") || reply.path("result").isArray());
    }
}
