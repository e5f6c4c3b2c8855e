package io.raglog.calls.adapters.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.RetrieveDetail;
import io.raglog.schemas.Passage;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A vector-store query traced as a database span, as OpenLLMetry's vector-DB instrumentations write it:
 * {@code db.system} names the store, {@code db.vector.query.top_k} the cut-off, a {@code db.query.embeddings} event
 * the query vector, one {@code db.query.result} event per hit ({@code db.query.result.id|score|document|metadata}).
 * Milvus writes {@code db.search.*} in place of {@code db.query.*}.
 */
final class VectorDbQuery {

    /** Stores that are only ever vector stores; a postgres or elasticsearch span may be anything, so it is not read. */
    static final Set<String> VECTOR_STORES =
            Set.of("qdrant", "pinecone", "chroma", "chromadb", "weaviate", "milvus", "lancedb", "marqo");

    private static final List<String> RESULT_EVENTS = List.of("db.query.result", "db.search.result");
    private static final List<String> EMBEDDING_EVENTS = List.of("db.query.embeddings", "db.search.embeddings");

    private VectorDbQuery() {}

    static String storeOf(AttributeMap a) {
        String system = a.firstString("db.system.name", "db.system");
        return system == null ? null : system.strip().toLowerCase(Locale.ROOT);
    }

    /** A query of a vector store, not an upsert or a collection admin call. */
    static boolean isQuery(SpanCall span) {
        AttributeMap a = span.attributes();
        String store = storeOf(a);
        if (store == null || !VECTOR_STORES.contains(store)) {
            return false;
        }
        if (a.has("db.vector.query.top_k")) {
            return true;
        }
        for (SpanCall.Event event : span.events()) {
            if (RESULT_EVENTS.contains(event.name())) {
                return true;
            }
        }
        String operation = a.firstString("db.operation.name", "db.operation");
        if (operation == null) {
            return false;
        }
        String op = operation.toLowerCase(Locale.ROOT);
        return op.contains("query") || op.contains("search");
    }

    static RetrieveDetail read(SpanCall span) throws AdapterException {
        AttributeMap a = span.attributes();
        String store = storeOf(a);
        float[] queryVector = null;
        List<Passage> passages = new ArrayList<>();
        for (SpanCall.Event event : span.events()) {
            String prefix = prefixOf(event.name());
            if (EMBEDDING_EVENTS.contains(event.name()) && queryVector == null) {
                queryVector = Vectors.of(event.attributes().json(prefix + ".embeddings.vector"),
                        event.name() + " vector");
            } else if (RESULT_EVENTS.contains(event.name())) {
                AttributeMap hit = event.attributes();
                String text = textOf(hit, prefix);
                passages.add(new Passage(PassageIds.idOr(hit.string(prefix + ".result.id"), text), text,
                        hit.decimal(prefix + ".result.score"), passages.size() + 1));
            }
        }
        Integer topK = a.firstInteger("db.vector.query.top_k", "db." + store + ".query.top_k");
        return new RetrieveDetail("vectordb." + store, store, a.firstString("db.collection.name", "db.namespace"),
                a.string("db.query.text"), queryVector, topK, List.copyOf(passages));
    }

    private static String prefixOf(String eventName) {
        return eventName.startsWith("db.search.") ? "db.search" : "db.query";
    }

    /**
     * The hit's text: the stored document when the store returns one (Chroma), else the text field frameworks keep
     * in the payload (LangChain {@code page_content}, LlamaIndex {@code text}). A distance is not a score and is not
     * read as one.
     */
    private static String textOf(AttributeMap hit, String prefix) throws AdapterException {
        String document = hit.string(prefix + ".result.document");
        if (document != null) {
            return document;
        }
        JsonNode metadata = hit.json(prefix + ".result.metadata");
        if (metadata != null && metadata.isObject()) {
            for (String field : List.of("text", "content", "page_content", "document", "chunk")) {
                String text = AttributeMap.text(metadata.get(field));
                if (text != null) {
                    return text;
                }
            }
        }
        return null;
    }
}
