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
 * Azure AI Search ({@code {service}.search.windows.net}), the store beside Azure OpenAI, as LangChain's
 * {@code AzureSearch}, LlamaIndex's {@code AzureAISearchVectorStore} and the Azure SDKs query it:
 * {@code POST /indexes/{index}/docs/search} (the SDKs' {@code /indexes('{index}')/docs/search.post.search}) with
 * {@code search} text and/or {@code vectorQueries} (a {@code vector}, or a {@code text} the service vectorizes
 * itself), {@code top} or each query's {@code k}; or {@code GET /indexes/{index}/docs?search=…}. The reply's
 * {@code value} documents come best first, each scored by {@code @search.rerankerScore} when semantic ranking
 * reordered them, else {@code @search.score}. Uploads ({@code docs/index}) are index building; the rest is admin.
 */
public final class AzureAiSearchAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    /** Fields that name a document (a chunk) in the indexes the frameworks and the portal's wizard create. */
    private static final List<String> ID_FIELDS = List.of("chunk_id", "id", "@search.documentId");

    @Override
    public String name() {
        return "azure-ai-search";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.hostEndsWith(".search.windows.net") || e.hostEndsWith(".search.azure.cn")
                || e.pathContains("/indexes") && (e.pathContains("/docs/search") || e.pathEndsWith("/docs")
                        || e.pathEndsWith("/docs/index"));
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        Endpoint e = Endpoint.of(call);
        boolean postSearch = e.isPost()
                && (e.pathEndsWith("/docs/search") || e.pathEndsWith("/docs/search.post.search"));
        boolean getSearch = e.isGet() && e.pathEndsWith("/docs") && e.queryParameter("search") != null;
        if (!postSearch && !getSearch) {
            return new NotARunCall(name(), e.pathContains("/docs/index")
                    ? "index building: documents uploaded (" + e.path() + ")"
                    : "index admin or lookup (" + e.method() + " " + e.path() + ")");
        }
        String text;
        float[] vector = null;
        Integer top;
        if (postSearch) {
            JsonNode request = Bodies.requestObject(call);
            text = searchText(Bodies.label(request, "search"));
            top = Bodies.integer(request, "top");
            for (JsonNode query : request.path("vectorQueries")) {
                if (query.path("vector").isArray() && vector == null) {
                    vector = Vectors.fromArray(query.get("vector"), "vectorQueries[].vector");
                } else if (query.path("text").isTextual() && text == null) {
                    text = query.get("text").textValue(); // integrated vectorization: the service embeds it
                }
                top = top != null ? top : Bodies.integer(query, "k");
            }
        } else {
            text = searchText(e.queryParameter("search"));
            String t = e.queryParameter("$top");
            top = t == null || !t.matches("\\d{1,6}") ? null : Integer.valueOf(t);
        }
        List<Passage> passages = new ArrayList<>();
        if (Bodies.succeeded(call)) {
            int rank = 1;
            for (JsonNode document : Bodies.requireArray(Bodies.responseJson(call), "value")) {
                String passage = PassageText.find(document);
                Double score = Bodies.number(document, "@search.rerankerScore");
                passages.add(new Passage(Passages.id(id(document), passage), passage,
                        score != null ? score : Bodies.number(document, "@search.score"), rank++));
            }
        }
        return new RetrieveDetail(name(), "azure-ai-search", index(e), text, vector, top, List.copyOf(passages));
    }

    /** {@code *} (every document) and an empty search are no query text. */
    private static String searchText(String search) {
        return search == null || search.isBlank() || search.strip().equals("*") ? null : search;
    }

    private static JsonNode id(JsonNode document) {
        for (String field : ID_FIELDS) {
            if (document.path(field).isTextual()) {
                return document.get(field);
            }
        }
        return null;
    }

    /** The index the path names: {@code /indexes/{index}/…} or the SDKs' {@code /indexes('{index}')/…}. */
    static String index(Endpoint e) {
        String after = e.segmentAfter("indexes");
        if (after != null) {
            return after;
        }
        for (String segment : e.segments()) {
            if (segment.startsWith("indexes(") && segment.endsWith(")")) {
                return segment.substring("indexes(".length(), segment.length() - 1).replace("'", "")
                        .replace("%27", "");
            }
        }
        return null;
    }
}
