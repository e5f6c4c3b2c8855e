package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.calls.EmbedDetail;
import io.raglog.calls.NotARunCall;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.TokenUsage;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Pinecone Inference {@code POST /embed} on {@code api.pinecone.io}: {@code inputs} as {@code [{text}]}, a hosted
 * model ({@code multilingual-e5-large}, {@code llama-text-embed-v2}) and {@code parameters.input_type}, {@code query}
 * or {@code passage}; reply {@code data: [{values}]}, {@code usage.total_tokens}. A passage is index building, whose
 * texts, model and dimension the known passages and the drift check learn. Told from TEI's and Cohere's
 * {@code /embed} behind a proxy by its inputs: objects holding a {@code text} (TEI's are strings, Cohere v2's objects
 * hold {@code content}).
 *
 * <p>A sparse model ({@code pinecone-sparse-english-v0}, reply {@code vector_type: sparse} with
 * {@code sparse_values} and {@code sparse_indices}) gives lexical weights for keyword or hybrid search, not a dense
 * vector, and is not a run call, a passage's neither. A hybrid pipeline embeds its question twice, dense and sparse:
 * read as an embed call too, the sparse one would link into the run by its text as well, make the run's embedding
 * model whichever of the two came first, and have the drift check see the query's model, and the index's, alternate
 * between the two. The retrieval links to the dense embedding by its vector, which the sparse one has none of.
 */
public final class PineconeEmbedAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "pinecone.embed";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        if (!e.isPost() || !e.pathEndsWith("/embed")) {
            return false;
        }
        return e.hostEndsWith(".pinecone.io") || Bodies.request(call).path("inputs").path(0).path("text").isTextual();
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        List<String> texts = texts(Bodies.requireArray(request, "inputs"));
        String model = Bodies.label(request, "model");
        JsonNode reply = Bodies.succeeded(call) ? Bodies.responseJson(call) : null;
        if (sparse(model, reply)) {
            return new NotARunCall(name(), "sparse embedding (" + model + "): lexical weights for keyword or hybrid "
                    + "search, not a dense vector");
        }
        String why = IndexBuilding.reasonFor(Bodies.label(Bodies.object(request, "parameters"), "input_type"), texts);
        if (why != null) {
            return new NotARunCall(name(), why);
        }
        if (reply == null) {
            return new EmbedDetail(name(), model, texts, List.of(), TokenUsage.UNKNOWN);
        }
        JsonNode data = Bodies.requireArray(reply, "data");
        List<float[]> vectors = new ArrayList<>(data.size());
        for (int i = 0; i < data.size(); i++) {
            vectors.add(Vectors.decode(data.get(i).get("values"), "data[" + i + "].values"));
        }
        if (vectors.size() != texts.size()) {
            throw new AdapterException("data has " + vectors.size() + " vectors for " + texts.size() + " inputs");
        }
        String replyModel = Bodies.label(reply, "model");
        return new EmbedDetail(name(), replyModel != null ? replyModel : model, texts, List.copyOf(vectors),
                Usage.of(reply.get("usage"), "total_tokens", null));
    }

    /** {@code inputs}: each an object with its {@code text}. */
    private static List<String> texts(JsonNode inputs) throws AdapterException {
        List<String> texts = new ArrayList<>(inputs.size());
        for (int i = 0; i < inputs.size(); i++) {
            JsonNode text = inputs.get(i).path("text");
            if (!text.isTextual()) {
                throw new AdapterException("'inputs[" + i + "].text' is " + Bodies.describe(text) + ", expected a string");
            }
            texts.add(text.textValue());
        }
        return List.copyOf(texts);
    }

    /** The reply says which kind of vector it holds; a call with no reply to read has its model's name to tell. */
    private static boolean sparse(String model, JsonNode reply) {
        String type = Bodies.label(reply, "vector_type");
        if (type != null) {
            return type.equalsIgnoreCase("sparse");
        }
        return model != null && model.toLowerCase(Locale.ROOT).contains("sparse");
    }
}
