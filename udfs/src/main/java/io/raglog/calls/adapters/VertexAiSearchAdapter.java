package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
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
import java.util.function.Function;

/**
 * Vertex AI Search (Discovery Engine, the search of Agent Builder apps) queried for documents:
 * {@code POST …/engines/{app}/servingConfigs/{config}:search} or
 * {@code …/dataStores/{store}/servingConfigs/{config}:search} ({@code :searchLite} too), as LangChain's
 * {@code VertexAISearchRetriever} and the Discovery Engine clients send it over REST. The {@code query} is text the
 * service searches with itself (no embedding call is seen), {@code pageSize} the cut-off; the reply's {@code results}
 * come best first, one a document, or one a chunk when the app searches chunks ({@code searchResultMode: CHUNKS}). A
 * reply that found nothing has no {@code results} (proto3 JSON leaves an empty list out).
 *
 * <p>A document's passage is what the pipeline got back of it, which the request's {@code contentSearchSpec} chose:
 * its extractive segments, else its extractive answers, else its snippets (without the {@code <b>} tags that
 * highlight the query's words), each joined a line apart, all found in {@code derivedStructData}; else the text-like
 * fields of its {@code structData} ({@link PassageText}). It is named by its document id, scored by the relevance the
 * request asked for ({@code modelScores.relevance_score}) or its first segment's {@code relevanceScore}.
 *
 * <p>Documents written or purged and user events recorded are not runs. The {@code :answer} method, which searches
 * and answers in one call, is read as a generator ({@link VertexAnswerAdapter}).
 */
public final class VertexAiSearchAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "vertex.search";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return isSearch(e) || e.pathContains("/dataStores/") && (e.pathContains("/documents")
                || e.pathContains("/userEvents"));
    }

    /** A serving config's search of an app or a data store (the Retail API's serving configs search products). */
    private static boolean isSearch(Endpoint e) {
        return e.isPost() && (e.pathEndsWith(":search") || e.pathEndsWith(":searchLite"))
                && e.segmentAfter("servingConfigs") != null
                && (e.segmentAfter("engines") != null || e.segmentAfter("dataStores") != null);
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        Endpoint e = Endpoint.of(call);
        if (!isSearch(e)) {
            return new NotARunCall(name(), dataStoreCall(e));
        }
        JsonNode request = Bodies.requestObject(call);
        String query = Bodies.text(request, "query");
        Integer top = Bodies.integer(request, Bodies.protoName(request, "page_size"));
        List<Passage> passages = new ArrayList<>();
        if (Bodies.succeeded(call)) {
            JsonNode results = Bodies.array(Bodies.responseJson(call), "results");
            int rank = 1;
            for (JsonNode result : results == null ? List.<JsonNode>of() : results) {
                passages.add(result.path("chunk").isObject() ? chunk(result.get("chunk"), rank++)
                        : document(result, rank++));
            }
        }
        String app = e.segmentAfter("engines");
        return new RetrieveDetail(name(), "vertex-ai-search", app != null ? app : e.segmentAfter("dataStores"),
                query == null || query.isBlank() ? null : query, null, top, List.copyOf(passages));
    }

    private static Passage document(JsonNode result, int rank) throws AdapterException {
        JsonNode document = result.path("document");
        JsonNode derived = document.path("derivedStructData");
        String text = lines(derived.path("extractive_segments"), segment -> Bodies.label(segment, "content"));
        if (text == null) {
            text = lines(derived.path("extractive_answers"), answer -> Bodies.label(answer, "content"));
        }
        if (text == null) {
            text = lines(derived.path("snippets"), VertexAiSearchAdapter::snippet);
        }
        if (text == null) {
            text = PassageText.find(document.get("structData"));
        }
        JsonNode id = result.path("id").isTextual() ? result.get("id") : document.get("id");
        JsonNode relevance = result.path("modelScores").path("relevance_score").path("values").path(0);
        Double score = relevance.isNumber() ? Double.valueOf(relevance.doubleValue())
                : Bodies.number(derived.path("extractive_segments").path(0), "relevanceScore");
        return new Passage(Passages.id(id, text), text, score, rank);
    }

    /** A chunk found in chunk mode: its content, named by its id or else the last part of its resource name. */
    private static Passage chunk(JsonNode chunk, int rank) throws AdapterException {
        String text = Bodies.label(chunk, "content");
        String name = Bodies.label(chunk, "name");
        JsonNode id = chunk.path("id").isTextual() || name == null ? chunk.get("id")
                : TextNode.valueOf(name.substring(name.lastIndexOf('/') + 1));
        return new Passage(Passages.id(id, text), text, Bodies.number(chunk, "relevanceScore"), rank);
    }

    /** The text each element gives, stripped, a line apart; null when none gives any. */
    private static String lines(JsonNode elements, Function<JsonNode, String> textOf) {
        List<String> texts = new ArrayList<>();
        for (JsonNode element : elements) {
            String text = textOf.apply(element);
            if (text != null && !text.isBlank()) {
                texts.add(text.strip());
            }
        }
        return texts.isEmpty() ? null : String.join("\n", texts);
    }

    /**
     * A snippet without the {@code <b>} tags that highlight the query's words; null for the placeholder a page
     * without one gets (its status not {@code SUCCESS}).
     */
    private static String snippet(JsonNode snippet) {
        String status = Bodies.label(snippet, "snippet_status");
        String text = Bodies.label(snippet, "snippet");
        return text == null || status != null && !status.equals("SUCCESS") ? null
                : text.replace("<b>", "").replace("</b>", "");
    }

    private static String dataStoreCall(Endpoint e) {
        if (e.pathContains("/userEvents")) {
            return "user events recorded for a data store (" + e.method() + " " + e.path() + ")";
        }
        if (e.isGet()) {
            return "document lookup (" + e.path() + ")";
        }
        if (e.pathEndsWith(":purge") || "DELETE".equals(e.method())) {
            return "index admin: documents deleted from a data store (" + e.path() + ")";
        }
        return "index building: documents written to a data store (" + e.method() + " " + e.path() + ")";
    }
}
