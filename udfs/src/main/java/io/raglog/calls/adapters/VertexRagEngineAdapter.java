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
 * Vertex AI RAG Engine queried for passages ({@code POST …/locations/{location}:retrieveContexts}, v1 and v1beta1, as
 * the Vertex AI SDK's {@code rag.retrieval_query} sends it over REST): the question in {@code query.text}, which the
 * service embeds itself (no embedding call is seen), the corpora in
 * {@code vertex_rag_store.rag_resources[].rag_corpus}, the cut-off in {@code query.rag_retrieval_config.top_k} (before
 * it, {@code query.similarity_top_k}); each field in either spelling ({@link Bodies#protoName}). Reply
 * {@code contexts.contexts: [{sourceUri, sourceDisplayName, text, score}]}, best first; one that found nothing has no
 * {@code contexts} (proto3 JSON leaves an empty list out).
 *
 * <p>The reply names no chunk, only the file it came from ({@code sourceUri}), which holds many: so a passage is named
 * by its text, the one name that stays the same when the chunk comes back for another question and when it reaches a
 * generator's prompt, as for OpenAI's vector stores. Its score is the reply's {@code score} as given, a cosine
 * distance on the default RagManagedDb and a similarity on other vector databases (the call does not say which);
 * a v1beta1 reply with only the older {@code distance} is scored {@code 1 - distance}, closer being higher, as
 * Chroma's distances are.
 *
 * <p>Building the corpus ({@code ragCorpora} created, {@code ragFiles:import}, {@code ragFiles:upload}) is index
 * building; the rest of {@code ragCorpora} is admin. Gemini grounded on a corpus retrieves inside its own call
 * ({@link GeminiGenerateAdapter}).
 */
public final class VertexRagEngineAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "vertex.rag-engine";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.isPost() && e.pathEndsWith(":retrieveContexts") || e.pathContains("/ragCorpora");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        Endpoint e = Endpoint.of(call);
        if (!e.pathEndsWith(":retrieveContexts")) {
            return new NotARunCall(name(), corpusCall(e));
        }
        JsonNode request = Bodies.requestObject(call);
        String text = Bodies.requireTextAt(request, "query.text", "the query");
        JsonNode query = request.get("query");
        JsonNode config = Bodies.protoField(query, "rag_retrieval_config");
        Integer topK = Bodies.integer(config, Bodies.protoName(config, "top_k"));
        if (topK == null) {
            topK = Bodies.integer(query, Bodies.protoName(query, "similarity_top_k"));
        }
        List<Passage> passages = new ArrayList<>();
        if (Bodies.succeeded(call)) {
            JsonNode contexts = Bodies.asArray(Bodies.responseJson(call).path("contexts").get("contexts"),
                    "contexts.contexts");
            int rank = 1;
            for (JsonNode context : contexts == null ? List.<JsonNode>of() : contexts) {
                String passage = context.path("text").isTextual() ? context.get("text").textValue()
                        : Bodies.label(context.path("chunk"), "text");
                passages.add(new Passage(Passages.contentId(passage), passage, score(context), rank++));
            }
        }
        return new RetrieveDetail(name(), "vertex-rag-engine", corpora(Bodies.protoField(request, "vertex_rag_store")),
                text, null, topK, List.copyOf(passages));
    }

    private static Double score(JsonNode context) throws AdapterException {
        Double score = Bodies.number(context, "score");
        Double distance = Bodies.number(context, "distance");
        return score != null || distance == null ? score : 1.0 - distance;
    }

    /**
     * The corpora searched, by id ({@code 4611686018427387904} of {@code projects/…/ragCorpora/4611686018427387904}),
     * comma-separated when there are several; from {@code rag_resources}, or the older {@code rag_corpora} names.
     */
    private static String corpora(JsonNode store) {
        List<JsonNode> names = new ArrayList<>();
        Bodies.protoField(store, "rag_resources").forEach(resource -> names.add(Bodies.protoField(resource, "rag_corpus")));
        Bodies.protoField(store, "rag_corpora").forEach(names::add);
        List<String> ids = new ArrayList<>();
        for (JsonNode name : names) {
            if (name.isTextual()) {
                ids.add(name.textValue().substring(name.textValue().lastIndexOf('/') + 1));
            }
        }
        return ids.isEmpty() ? null : String.join(",", ids);
    }

    private static String corpusCall(Endpoint e) {
        if (e.isPost() && (e.pathEndsWith("/ragFiles:import") || e.pathEndsWith("/ragFiles:upload"))) {
            return "index building: files " + (e.pathEndsWith(":upload") ? "uploaded to" : "imported into")
                    + " a RAG corpus (" + e.path() + ")";
        }
        if (e.isPost() && e.pathEndsWith("/ragCorpora")) {
            return "index building: a RAG corpus created (" + e.path() + ")";
        }
        return "RAG corpus admin (" + e.method() + " " + e.path() + ")";
    }
}
