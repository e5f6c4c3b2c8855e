package io.raglog.knowledge;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.adapters.Ndjson;
import io.raglog.calls.adapters.PassageText;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The passages a vector store write carries, in each store's own shape. A store that embeds what it is given
 * (Upstash's {@code upsert-data}, Pinecone's integrated records, Weaviate with a vectoriser, Elasticsearch's
 * {@code semantic_text}) leaves no embedding call to learn the knowledge base from: its writes are the only place the
 * texts show. Where the client embedded them itself the embedding call taught them already, and learning them twice
 * changes nothing.
 *
 * <p>A write's records are the list it names ({@code vectors} Pinecone, {@code points} Qdrant, {@code objects}
 * Weaviate's batch, {@code upsert_rows} and {@code upserts} turbopuffer, {@code value} Azure AI Search, {@code data}
 * Milvus), Chroma's {@code documents}, each line of NDJSON (Elasticsearch's {@code _bulk} less its action lines,
 * Pinecone's records), the elements of an array (Upstash, Supabase), or the body itself when it is one record. A
 * record's text is Upstash's {@code data}, else what {@link PassageText} finds in its payload, properties or
 * attributes, else in the record itself (its {@code metadata} included), as the store's search hits are read.
 * Deletes carry ids and teach nothing.
 */
final class StoreWrites {

    private static final List<String> RECORD_LISTS = List.of("vectors", "points", "objects", "upsert_rows",
            "upserts", "value", "data");

    private static final List<String> PAYLOAD_FIELDS = List.of("payload", "properties", "attributes");

    /** Elasticsearch's {@code _bulk} action lines: one of these keys, its object the action's metadata. */
    private static final Set<String> BULK_ACTIONS = Set.of("index", "create", "update", "delete");

    private StoreWrites() {}

    /** The texts of the records a store write carries; empty when it carries none (or is not one this reads). */
    static List<String> texts(JsonNode request) {
        List<String> texts = new ArrayList<>();
        JsonNode documents = request == null ? null : request.get("documents");
        if (documents != null && documents.isArray()) { // Chroma's add and upsert: the texts, by position
            documents.forEach(d -> IndexedPassages.add(d.isTextual() ? d.textValue() : null, texts));
            return texts;
        }
        for (JsonNode record : records(request)) {
            // a bare string is an id (Upstash's delete), not a text
            IndexedPassages.add(record.isObject() ? textOf(record) : null, texts);
        }
        return texts;
    }

    private static Iterable<JsonNode> records(JsonNode request) {
        if (request == null || request.isMissingNode() || request.isNull()) {
            return List.of();
        }
        if (request.isObject()) {
            for (String list : RECORD_LISTS) {
                JsonNode records = request.get(list);
                if (records != null && records.isArray()) {
                    return records;
                }
            }
            JsonNode payloads = request.path("batch").get("payloads"); // Qdrant's column-wise batch
            if (payloads != null && payloads.isArray()) {
                return payloads;
            }
            return List.of(request);
        }
        try {
            List<JsonNode> lines = new ArrayList<>();
            for (JsonNode line : Ndjson.objects(request)) {
                if (!isBulkAction(line)) {
                    lines.add(line);
                }
            }
            return lines;
        } catch (AdapterException notJsonLines) {
            return List.of(); // a write whose body was cut or is not JSON: nothing to learn, and no reason to fail
        }
    }

    private static boolean isBulkAction(JsonNode line) {
        return line.isObject() && line.size() == 1 && BULK_ACTIONS.contains(line.fieldNames().next());
    }

    private static String textOf(JsonNode record) {
        if (record.path("data").isTextual()) {
            return record.get("data").textValue(); // Upstash: the text it embeds and keeps
        }
        for (String field : PAYLOAD_FIELDS) {
            JsonNode payload = record.get(field);
            if (payload != null && payload.isObject()) {
                return PassageText.find(payload);
            }
        }
        return PassageText.find(record);
    }
}
