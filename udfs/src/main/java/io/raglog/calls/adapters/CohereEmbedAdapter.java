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
import java.util.List;

/**
 * Cohere {@code /v1/embed} and {@code /v2/embed}: {@code texts} plus an {@code input_type} that says whether they
 * are queries ({@code search_query}) or documents ({@code search_document}: index building). Vectors come back as
 * {@code embeddings: [[...]]} (v1) or {@code embeddings: {"float": [[...]]}} (v1 with embedding_types, v2).
 */
public final class CohereEmbedAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "cohere.embed";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.isPost() && e.pathEndsWith("/embed") && Bodies.request(call).has("texts");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        List<String> texts = EmbedInputs.texts(request, "texts");
        String why = IndexBuilding.reasonFor(Bodies.label(request, "input_type"), texts);
        if (why != null) {
            return new NotARunCall(name(), why);
        }
        String model = Bodies.label(request, "model");
        if (!Bodies.succeeded(call)) {
            return new EmbedDetail(name(), model, List.copyOf(texts), List.of(), TokenUsage.UNKNOWN);
        }
        JsonNode reply = Bodies.responseJson(call);
        return new EmbedDetail(name(), model, List.copyOf(texts), vectors(reply, texts.size()),
                Usage.of(reply.path("meta").get("billed_units"), "input_tokens", null));
    }

    /** A Cohere embed reply's float vectors, on Cohere's API or Bedrock's: {@code embeddings}, or its {@code float}. */
    static List<float[]> vectors(JsonNode reply, int texts) throws AdapterException {
        JsonNode embeddings = reply.get("embeddings");
        if (embeddings != null && embeddings.isObject()) {
            embeddings = embeddings.get("float");
            if (embeddings == null) {
                throw new AdapterException("'embeddings' has no float vectors (only int8/binary were asked for)");
            }
        }
        return EmbedInputs.vectors(embeddings, "embeddings", texts);
    }
}
