package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;

/**
 * Google Cloud's APIs read a request as proto3 JSON, where a field may be written under its proto name
 * ({@code rag_retrieval_config}, as the REST samples and LangChain write it) or its JSON name
 * ({@code ragRetrievalConfig}, as the client libraries send it); both are the same field, so an adapter asks for the
 * field by its proto name and gets whichever the call used. Replies come under JSON names only, except inside free-form
 * structs (a Vertex AI Search document's {@code derivedStructData}), whose keys are whatever was stored.
 */
final class ProtoJson {

    private ProtoJson() {}

    /** The name {@code message} holds the field under: its proto name when written so, else its JSON name. */
    static String name(JsonNode message, String protoName) {
        JsonNode v = message == null ? null : message.get(protoName);
        return v != null && !v.isNull() ? protoName : jsonName(protoName);
    }

    /** The field under either name; a missing node when it is under neither, so that paths chain on. */
    static JsonNode field(JsonNode message, String protoName) {
        return message == null ? MissingNode.getInstance() : message.path(name(message, protoName));
    }

    /** {@code similarity_top_k} as {@code similarityTopK}: lowerCamelCase, as protoc names a field in JSON. */
    private static String jsonName(String protoName) {
        StringBuilder sb = new StringBuilder(protoName.length());
        boolean upper = false;
        for (char c : protoName.toCharArray()) {
            if (c == '_') {
                upper = true;
            } else {
                sb.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return sb.toString();
    }
}
