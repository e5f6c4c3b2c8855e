package io.raglog.calls.adapters.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.schemas.Passage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Retrieved documents as tracing SDKs serialize them whole into one span attribute: LangChain's {@code Document}
 * ({@code page_content}, {@code metadata}, {@code id}; {@code pageContent} in LangChain.js), MLflow's own
 * {@code Document} (the same fields; LlamaIndex nodes converted, their score put in the metadata), LlamaIndex's
 * {@code NodeWithScore} ({@code node: {id_, text}}, {@code score}), or plain strings.
 */
final class SerializedDocuments {

    private static final List<String> TEXT_FIELDS = List.of("page_content", "pageContent", "text", "content");
    /**
     * Metadata fields that name the chunk itself: a store's point id as LangChain's integrations copy it, MLflow's
     * {@code chunk_id}. A document's id ({@code doc_id}, {@code source}) is shared by its chunks and is not one.
     */
    private static final List<String> METADATA_ID_FIELDS = List.of("id", "_id", "chunk_id");
    /** The store's similarity (MLflow's LlamaIndex conversion), or a reranker's relevance (LangChain's compressors). */
    private static final List<String> METADATA_SCORE_FIELDS = List.of("score", "relevance_score");

    /** Where a retrieval's or a rerank's arguments hold the query: LangChain's, LlamaIndex's string or query bundle. */
    private static final List<String> QUERY_ARGUMENTS =
            List.of("query", "query_str", "input", "question", "str_or_query_bundle", "query_bundle");

    private SerializedDocuments() {}

    /**
     * The query a retrieval or a rerank was asked: the arguments when they are a string, else the query among them (a
     * LlamaIndex query bundle read through to its {@code query_str}); null when they hold none.
     */
    static String query(JsonNode arguments) {
        if (arguments == null || arguments.isNull()) {
            return null;
        }
        if (arguments.isTextual()) {
            return arguments.textValue();
        }
        for (String name : QUERY_ARGUMENTS) {
            String query = arguments.isObject() ? query(arguments.get(name)) : null;
            if (query != null) {
                return query;
            }
        }
        return null;
    }

    /**
     * The documents as passages in rank order: ids as the store gave them, else derived from the text
     * ({@link PassageIds}); none when the value is absent.
     *
     * @param what the attribute, to name in the error
     * @throws AdapterException when the value is present but not a list
     */
    static List<Passage> passages(JsonNode documents, String what) throws AdapterException {
        List<JsonNode> list = list(documents, what);
        List<Passage> passages = new ArrayList<>(list.size());
        for (JsonNode document : list) {
            String text = text(document);
            passages.add(new Passage(PassageIds.idOr(id(document), text), text, score(document), passages.size() + 1));
        }
        return passages;
    }

    /**
     * The documents of a list, none when absent.
     *
     * @throws AdapterException when the value is present but not a list
     */
    static List<JsonNode> list(JsonNode documents, String what) throws AdapterException {
        List<JsonNode> list = new ArrayList<>();
        if (documents == null || documents.isNull() || documents.isMissingNode()) {
            return list;
        }
        if (!documents.isArray()) {
            throw new AdapterException(what + " is not a list of documents but "
                    + documents.getNodeType().toString().toLowerCase(Locale.ROOT));
        }
        documents.forEach(list::add);
        return list;
    }

    static String text(JsonNode document) {
        if (document.isTextual()) {
            return document.textValue();
        }
        JsonNode fields = fields(document);
        for (String field : TEXT_FIELDS) {
            String text = AttributeMap.text(fields.get(field));
            if (text != null) {
                return text;
            }
        }
        return null;
    }

    /** The document's own id, else the chunk's id in its metadata; null when neither says. */
    static String id(JsonNode document) {
        JsonNode fields = fields(document);
        String id = firstText(fields, List.of("id", "id_"));
        return id != null ? id : firstText(fields.path("metadata"), METADATA_ID_FIELDS);
    }

    static Double score(JsonNode document) {
        Double score = AttributeMap.decimal(document.get("score"));
        if (score != null) {
            return score;
        }
        JsonNode metadata = fields(document).path("metadata");
        for (String field : METADATA_SCORE_FIELDS) {
            score = AttributeMap.decimal(metadata.get(field));
            if (score != null) {
                return score;
            }
        }
        return null;
    }

    /** A LlamaIndex {@code NodeWithScore} holds its document under {@code node}, its score beside it. */
    private static JsonNode fields(JsonNode document) {
        JsonNode node = document.get("node");
        return node != null && node.isObject() ? node : document;
    }

    private static String firstText(JsonNode object, List<String> fields) {
        for (String field : fields) {
            String text = AttributeMap.text(object.get(field));
            if (text != null && !text.isBlank()) {
                return text;
            }
        }
        return null;
    }
}
