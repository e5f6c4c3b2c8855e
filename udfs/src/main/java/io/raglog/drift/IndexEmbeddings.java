package io.raglog.drift;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.adapters.Bodies;
import io.raglog.calls.adapters.Endpoint;
import io.raglog.calls.adapters.Vectors;
import io.raglog.schemas.CallEvent;

/**
 * Reads the model and dimension of an index-building embedding call (OpenAI-compatible {@code data[].embedding}, array
 * or base64; Cohere {@code embeddings} or {@code embeddings.float}; Ollama {@code embeddings}; TEI's bare array of
 * vectors; Gemini's {@code embedding.values} or {@code embeddings[].values}, its model in the path; Bedrock's Titan
 * {@code embedding}, its model in the path too; Vertex AI's {@code predictions[].embeddings.values}, its model in the
 * path as Gemini's; Pinecone Inference's {@code data[].values}). Calls the adapters classified as index building
 * only; anything else, or a call that names neither a model nor a dimension, is null.
 * Vector-store writes (upserts) are not read: they name a collection but no model. A write shows a dimension at most,
 * under the store's own name for the index (a namespace, a table) where the embedding call that made its vectors names
 * none: read as an index of its own, it would become the pipeline's latest and hide the model that call showed.
 */
public final class IndexEmbeddings {

    private static final String[] INDEX_FIELDS = {"collection", "collection_name", "namespace", "index", "index_name"};

    private IndexEmbeddings() {}

    public static IndexEmbedding read(ClassifiedCall call) {
        if (!(call.detail() instanceof NotARunCall n) || !n.embedsDocuments() || call.event().failed()) {
            return null;
        }
        CallEvent e = call.event();
        JsonNode request = Bodies.request(e);
        JsonNode reply = Bodies.response(e);
        // Gemini names the model in the path, and a batch's requests name it as "models/…": the path's, as the query's
        String model = Endpoint.of(e).modelBeforeMethod();
        if (model == null) {
            model = Endpoint.of(e).bedrockModel(); // Bedrock's invoke names it in the path too, and the body none
        }
        if (model == null) {
            model = Bodies.label(request, "model");
        }
        if (model == null) {
            model = Bodies.label(reply, "model");
        }
        Integer dimensions = firstVectorLength(reply);
        if (dimensions == null && request != null && request.path("dimensions").isInt()) {
            dimensions = request.get("dimensions").intValue();
        }
        if (model == null && dimensions == null) {
            return null;
        }
        String index = null;
        for (String field : INDEX_FIELDS) {
            index = index != null ? index : Bodies.label(request, field);
        }
        return new IndexEmbedding(e.pipeline(), index, model, dimensions, e.endedAt());
    }

    static Integer firstVectorLength(JsonNode reply) {
        if (reply == null || reply.isMissingNode() || reply.isNull()) {
            return null;
        }
        JsonNode first = null;
        if (reply.path("predictions").path(0).path("embeddings").path("values").isArray()) {
            first = reply.get("predictions").get(0).get("embeddings").get("values"); // Vertex AI's :predict
        } else if (reply.path("embeddings").path(0).path("values").isArray()) {
            first = reply.get("embeddings").get(0).get("values"); // Gemini's batchEmbedContents
        } else if (reply.path("embedding").path("values").isArray()) {
            first = reply.get("embedding").get("values"); // Gemini's embedContent
        } else if (reply.path("embedding").isArray()) {
            first = reply.get("embedding"); // Amazon Titan's, on Bedrock
        } else if (reply.path("data").isArray() && reply.get("data").size() > 0) {
            JsonNode item = reply.get("data").get(0);
            first = item.has("embedding") ? item.get("embedding") : item.get("values"); // OpenAI's; Pinecone's
        } else if (reply.path("embeddings").isArray() && reply.get("embeddings").size() > 0) {
            first = reply.get("embeddings").get(0);
        } else if (reply.path("embeddings").path("float").isArray() && reply.get("embeddings").get("float").size() > 0) {
            first = reply.get("embeddings").get("float").get(0);
        } else if (reply.isArray() && reply.size() > 0) {
            first = reply.get(0);
        }
        if (first == null) {
            return null;
        }
        try {
            int length = Vectors.decode(first, "embedding").length;
            return length > 0 ? length : null;
        } catch (AdapterException e) {
            return null;
        }
    }
}
