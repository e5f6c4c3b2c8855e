package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Finds a passage's text in what a vector store returns with a hit (Qdrant payload, Pinecone metadata, an
 * Elasticsearch {@code _source}, a Weaviate object). Frameworks store it under different keys: LangChain's
 * {@code page_content} (Qdrant) or {@code text} (Pinecone, Elasticsearch, Weaviate), Haystack's {@code content},
 * LlamaIndex's {@code _node_content} (the whole node serialised as a JSON string, text inside), and LangChain.js's own
 * reserved keys beside the document's metadata: {@code _pageContentLC} (Upstash), {@code __lc_page_content}
 * (turbopuffer), which the fallback to the longest string would skip as it skips every key that starts with an
 * underscore.
 */
public final class PassageText {

    /** Keys that hold the passage itself, most specific first: a framework's reserved key is never the user's. */
    static final List<String> TEXT_KEYS = List.of("_pageContentLC", "__lc_page_content",
            "text", "page_content", "pageContent", "content", "chunk", "chunk_text", "document", "body", "passage");

    /** Below this a fallback string is a title, a URL or a tag rather than a passage. */
    static final int FALLBACK_MIN_CHARS = 40;

    private PassageText() {}

    /** The passage text, or null when the store returned no payload or nothing that looks like one. */
    public static String find(JsonNode payload) {
        if (payload == null || payload.isNull() || payload.isMissingNode()) {
            return null;
        }
        if (payload.isTextual()) {
            return payload.textValue();
        }
        if (!payload.isObject()) {
            return null;
        }
        String direct = byKnownKey(payload);
        if (direct != null) {
            return direct;
        }
        String node = llamaIndexNode(payload.get("_node_content"));
        if (node != null) {
            return node;
        }
        JsonNode metadata = payload.get("metadata");
        if (metadata != null && metadata.isObject()) {
            String nested = byKnownKey(metadata);
            if (nested == null) {
                nested = llamaIndexNode(metadata.get("_node_content"));
            }
            if (nested != null) {
                return nested;
            }
        }
        return longestString(payload);
    }

    private static String byKnownKey(JsonNode obj) {
        for (String key : TEXT_KEYS) {
            JsonNode v = obj.get(key);
            if (v != null && v.isTextual() && !v.textValue().isBlank()) {
                return v.textValue();
            }
        }
        return null;
    }

    private static String llamaIndexNode(JsonNode nodeContent) {
        if (nodeContent == null || !nodeContent.isTextual()) {
            return null;
        }
        try {
            JsonNode node = Json.MAPPER.readTree(nodeContent.textValue());
            JsonNode text = node.get("text");
            if (text == null) {
                JsonNode resource = node.path("text_resource").get("text"); // LlamaIndex >= 0.12 nodes
                text = resource;
            }
            return text != null && text.isTextual() && !text.textValue().isBlank() ? text.textValue() : null;
        } catch (IOException notJson) {
            return null;
        }
    }

    private static String longestString(JsonNode obj) {
        String best = null;
        Iterator<Map.Entry<String, JsonNode>> fields = obj.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> f = fields.next();
            if (f.getKey().startsWith("_") || !f.getValue().isTextual()) {
                continue;
            }
            String v = f.getValue().textValue();
            if (v.length() >= FALLBACK_MIN_CHARS && !v.startsWith("http") && (best == null || v.length() > best.length())) {
                best = v;
            }
        }
        return best;
    }
}
