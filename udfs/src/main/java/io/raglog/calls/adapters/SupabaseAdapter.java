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
 * Supabase's PostgREST ({@code https://{ref}.supabase.co/rest/v1/…}, a self-hosted Supabase's too), as LangChain's
 * {@code SupabaseVectorStore} (JS and Python) uses it over pgvector. A search is a database function called with the
 * query's vector: {@code POST /rest/v1/rpc/match_documents} (the name is the pipeline's to choose) with
 * {@code query_embedding}, {@code match_count} (or supabase-js's {@code ?limit=}) and {@code filter}; the reply is the
 * function's rows, {@code [{id, content, metadata, similarity}]}. The vector is kept exactly as sent, as Pinecone's
 * is, so that the run links the search to the embedding call by it. Rows written with an {@code embedding}
 * ({@code POST /rest/v1/{table}}, LangChain's {@code addVectors}) build the index, and the known passages learn their
 * {@code content}. Every other call is the application's own use of its database (selects, other functions), not a
 * run call.
 *
 * <p>Tried first of all: the tables and functions are the pipeline's own names, and one called {@code embeddings} or
 * {@code rerank} would otherwise be claimed by a model API's adapter. {@code /rest/v1/} is PostgREST's prefix on
 * Supabase and no model API's; a bare PostgREST is recognised by a function called with a {@code query_embedding}.
 */
public final class SupabaseAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "supabase";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        if (e.pathContains("/rest/v1/")) {
            return true;
        }
        return e.isPost() && function(e) != null && Bodies.request(call).has("query_embedding");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        Endpoint e = Endpoint.of(call);
        String function = function(e);
        if (e.isPost() && function != null) {
            JsonNode request = Bodies.request(call);
            if (request.has("query_embedding")) {
                return search(call, e, function, request);
            }
            return new NotARunCall(name(), "database function without a query vector (rpc/" + function + ")");
        }
        JsonNode body = Bodies.request(call);
        if (e.isPost() && writesEmbeddings(body)) {
            List<String> segs = e.segments();
            return new NotARunCall(name(), "index building: " + (body.isArray() ? body.size() : 1)
                    + " rows with embeddings written to " + segs.get(segs.size() - 1));
        }
        return new NotARunCall(name(), "database read or write, no similarity query (" + e.method() + " " + e.path()
                + ")");
    }

    private RetrieveDetail search(CallEvent call, Endpoint e, String function, JsonNode request)
            throws AdapterException {
        // pgvector also takes a vector as its text, '[0.1,0.2]': the JSON inside is read the same
        JsonNode embedding = Bodies.json(request.get("query_embedding"));
        if (!embedding.isArray()) {
            throw new AdapterException("'query_embedding' is " + Bodies.describe(embedding) + ", expected a vector");
        }
        float[] vector = Vectors.fromArray(embedding, "query_embedding");
        Integer topK = Bodies.integer(request, "match_count");
        if (topK == null) {
            String limit = e.queryParameter("limit");
            topK = limit != null && limit.matches("\\d{1,9}") ? Integer.valueOf(limit) : null;
        }
        List<Passage> passages = Bodies.succeeded(call) ? passages(Bodies.responseJson(call)) : List.of();
        return new RetrieveDetail(name(), "supabase", function, null, vector, topK, passages);
    }

    /**
     * The function's rows, best first: the passage in {@code content} (LangChain's column), else in what the row's
     * {@code metadata} holds; never the fallback to a row's longest string, which would be its {@code embedding} when
     * the function returns it as pgvector's text.
     */
    private static List<Passage> passages(JsonNode reply) throws AdapterException {
        if (!reply.isArray()) {
            throw new AdapterException("response is " + Bodies.describe(reply) + ", expected the function's rows");
        }
        List<Passage> out = new ArrayList<>(reply.size());
        for (JsonNode row : reply) {
            String text = Bodies.label(row, "content");
            if (text == null) {
                text = PassageText.find(row.get("metadata"));
            }
            out.add(new Passage(Passages.id(row.get("id"), text), text, Bodies.number(row, "similarity"),
                    out.size() + 1));
        }
        return List.copyOf(out);
    }

    /** A row, or rows, each with an embedding: a vector store's write into its table. */
    private static boolean writesEmbeddings(JsonNode body) {
        return body.isObject() ? body.hasNonNull("embedding") : Bodies.everyElement(body, r -> r.hasNonNull("embedding"));
    }

    /** The function a path calls, {@code match_documents} of {@code …/rpc/match_documents}; null for a table's path. */
    private static String function(Endpoint e) {
        List<String> segs = e.segments();
        return segs.size() >= 2 && segs.get(segs.size() - 2).equalsIgnoreCase("rpc") ? segs.get(segs.size() - 1) : null;
    }
}
