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
 * OpenAI's hosted vector stores ({@code /v1/vector_stores}, Azure OpenAI's too). {@code POST
 * /vector_stores/{id}/search} is a retrieval: {@code query} (a string, or several), {@code max_num_results}; reply
 * {@code data: [{file_id, filename, score, content: [{type: text, text}]}]}, best first. With
 * {@code rewrite_query} the service rewrites the query itself and says how in {@code search_query}: that is the
 * query the store was searched with. Adding files and creating or listing stores is index building or admin.
 */
public final class OpenAiVectorStoreAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "openai.vector-stores";
    }

    @Override
    public boolean accepts(CallEvent call) {
        return Endpoint.of(call).pathContains("/vector_stores");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        Endpoint e = Endpoint.of(call);
        if (!e.isPost() || !e.pathEndsWith("/search")) {
            return new NotARunCall(name(), e.pathContains("/files") || e.pathContains("/file_batches")
                    ? "index building: files added to a vector store (" + e.path() + ")"
                    : "vector store admin (" + e.method() + " " + e.path() + ")");
        }
        JsonNode request = Bodies.requestObject(call);
        JsonNode query = request.get("query");
        String queryText = query != null && query.isArray()
                ? String.join("\n", EmbedInputs.texts(request, "query")) : Bodies.requireText(request, "query");
        Integer topK = Bodies.integer(request, "max_num_results");
        List<Passage> passages = new ArrayList<>();
        if (Bodies.succeeded(call)) {
            JsonNode reply = Bodies.responseJson(call);
            JsonNode rewritten = reply.path("search_query");
            if (Bodies.flag(request, "rewrite_query") && rewritten.isArray() && !rewritten.isEmpty()) {
                queryText = String.join("\n", EmbedInputs.texts(reply, "search_query"));
            }
            int rank = 1;
            for (JsonNode result : Bodies.requireArray(reply, "data")) {
                String text = Bodies.contentText(result.get("content"), "data[" + (rank - 1) + "].content");
                // a file holds many chunks: the chunk's own text names it, not the file's id
                passages.add(new Passage(Passages.contentId(text), text, Bodies.number(result, "score"), rank++));
            }
        }
        return new RetrieveDetail(name(), "openai-vector-store", e.segmentBefore("search"), queryText, null, topK,
                List.copyOf(passages));
    }
}
