package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.RerankDetail;
import io.raglog.calls.RerankDetail.RerankResult;
import io.raglog.schemas.CallEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * What every rerank API shares: a query, documents as strings or objects with a {@code text}, and a reply that lists
 * {@code (index, score)} pairs. Vendors differ only in field names, which each adapter passes in.
 */
final class RerankReading {

    private RerankReading() {}

    static RerankDetail read(String adapter, CallEvent call, String documentsField, String topField,
            String resultsField, String scoreField) throws AdapterException {
        return read(adapter, call, documentsField, false, topField, resultsField, scoreField);
    }

    /**
     * The same of an API whose documents, when objects, hold their text in the fields the request's
     * {@code rank_fields} names (Pinecone's, Mixedbread's): what the reranker read, whatever else a document holds (a
     * {@code text} beside the field it was told to rank by is not it). A request that names none, or a document that
     * has none of them, is read as {@link #documents} reads it.
     */
    static RerankDetail readByRankFields(String adapter, CallEvent call, String documentsField, String topField,
            String resultsField, String scoreField) throws AdapterException {
        return read(adapter, call, documentsField, true, topField, resultsField, scoreField);
    }

    private static RerankDetail read(String adapter, CallEvent call, String documentsField, boolean byRankFields,
            String topField, String resultsField, String scoreField) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        String query = Bodies.requireText(request, "query");
        List<String> rankFields = byRankFields ? rankFields(request) : List.of();
        List<String> documents = documents(Bodies.requireArray(request, documentsField), documentsField, rankFields);
        Integer top = Bodies.integer(request, topField);
        String model = Bodies.label(request, "model");
        if (!Bodies.succeeded(call)) {
            return new RerankDetail(adapter, model, query, documents, List.of(), top);
        }
        JsonNode reply = Bodies.responseJson(call);
        JsonNode results = resultsField == null ? reply : Bodies.requireArray(reply, resultsField);
        if (!results.isArray()) {
            throw new AdapterException("response is " + Bodies.describe(results) + ", expected an array of results");
        }
        String replyModel = resultsField == null ? null : Bodies.label(reply, "model");
        return new RerankDetail(adapter, replyModel != null ? replyModel : model, query, documents,
                results(results, scoreField, documents.size(), resultsField == null ? "response" : resultsField),
                top);
    }

    /**
     * @param rankFields the fields an object document's text is in, their texts one per line; empty: the text
     *     {@link PassageText} finds, else the whole object
     */
    static List<String> documents(JsonNode docs, String field, List<String> rankFields) throws AdapterException {
        List<String> out = new ArrayList<>(docs.size());
        int i = 0;
        for (JsonNode d : docs) {
            if (d.isTextual()) {
                out.add(d.textValue());
            } else if (d.isObject()) {
                String text = rankFields.isEmpty() ? null : rankedText(d, rankFields);
                if (text == null) {
                    text = PassageText.find(d);
                }
                out.add(text != null ? text : d.toString()); // Cohere v1 rank_fields documents: keep them whole
            } else {
                throw new AdapterException("'" + field + "[" + i + "]' is " + Bodies.describe(d)
                        + ", expected text or an object");
            }
            i++;
        }
        return List.copyOf(out);
    }

    /** The request's {@code rank_fields}, in order; empty when it names none. */
    private static List<String> rankFields(JsonNode request) throws AdapterException {
        JsonNode fields = Bodies.array(request, "rank_fields");
        List<String> out = new ArrayList<>();
        for (JsonNode f : fields == null ? List.<JsonNode>of() : fields) {
            if (f.isTextual()) {
                out.add(f.textValue());
            }
        }
        return out;
    }

    /** The texts of a document's rank fields, one per line; null when it has none of them as text. */
    private static String rankedText(JsonNode document, List<String> rankFields) {
        StringBuilder text = new StringBuilder();
        for (String f : rankFields) {
            JsonNode v = document.get(f);
            if (v != null && v.isTextual()) {
                text.append(text.length() == 0 ? "" : "\n").append(v.textValue());
            }
        }
        return text.length() == 0 ? null : text.toString();
    }

    /** The results best first (vendors already sort; sorting again is stable and guards a proxy that reordered). */
    static List<RerankResult> results(JsonNode results, String scoreField, int documents, String field)
            throws AdapterException {
        return results(results, scoreField, documents, field, "index", r -> Bodies.integer(r, "index"));
    }

    /**
     * The same of a reply that names each document by the id it was sent with rather than by its place (Vertex AI's
     * ranking API): an id sent with none of the documents is outside them.
     */
    static List<RerankResult> resultsById(JsonNode results, String scoreField, Map<String, Integer> indexById,
            int documents, String field) throws AdapterException {
        return results(results, scoreField, documents, field, "id", r -> {
            JsonNode id = r.path("id");
            return id.isTextual() || id.isNumber() ? indexById.getOrDefault(id.asText(), -1) : null;
        });
    }

    /** Where a result's document is among those sent, read from the result; null when it does not say. */
    @FunctionalInterface
    private interface DocumentIndex {
        Integer of(JsonNode result) throws AdapterException;
    }

    private static List<RerankResult> results(JsonNode results, String scoreField, int documents, String field,
            String key, DocumentIndex indexOf) throws AdapterException {
        List<RerankResult> out = new ArrayList<>(results.size());
        int i = 0;
        for (JsonNode r : results) {
            Integer index = indexOf.of(r);
            Double score = Bodies.number(r, scoreField);
            if (index == null || score == null) {
                throw new AdapterException(field + "[" + i + "] lacks '" + key + "' or '" + scoreField + "'");
            }
            if (index < 0 || index >= documents) {
                throw new AdapterException(field + "[" + i + "]." + key + " " + r.get(key).asText() + " is outside the "
                        + documents + " documents sent");
            }
            out.add(new RerankResult(index, score));
            i++;
        }
        out.sort(Comparator.comparingDouble(RerankResult::score).reversed());
        return List.copyOf(out);
    }
}
