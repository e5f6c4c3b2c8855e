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
 * Hugging Face Text Embeddings Inference {@code /embed}: {@code {"inputs": string | [strings]}} answered by a bare
 * array of vectors. TEI serves one model, so the request names none; the model is unknown here.
 */
public final class TeiEmbedAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "tei.embed";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        if (!e.isPost() || !e.pathEndsWith("/embed")) {
            return false;
        }
        // Cohere v2 also takes "inputs", as multimodal objects: TEI's are text.
        JsonNode inputs = Bodies.request(call).path("inputs");
        return inputs.isTextual() || (inputs.isArray() && inputs.size() > 0 && inputs.get(0).isTextual());
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        List<String> texts = EmbedInputs.texts(request, "inputs");
        String why = IndexBuilding.reasonForTexts(texts);
        if (why != null) {
            return new NotARunCall(name(), why);
        }
        if (!Bodies.succeeded(call)) {
            return new EmbedDetail(name(), null, List.copyOf(texts), List.of(), TokenUsage.UNKNOWN);
        }
        List<float[]> vectors = EmbedInputs.vectors(Bodies.responseJson(call), "response", texts.size());
        return new EmbedDetail(name(), null, List.copyOf(texts), vectors, TokenUsage.UNKNOWN);
    }
}
