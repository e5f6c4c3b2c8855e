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
 * Ollama's native embeddings: {@code /api/embed} ({@code input} string or strings, reply {@code embeddings}: one
 * vector per input) and the legacy {@code /api/embeddings} ({@code prompt}, reply {@code embedding}), which
 * LangChain's and LlamaIndex's Ollama integrations still call.
 */
public final class OllamaEmbedAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "ollama.embed";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.isPost() && (e.pathEndsWith("/api/embed") || e.pathEndsWith("/api/embeddings"));
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        boolean legacy = Endpoint.of(call).pathEndsWith("/api/embeddings");
        List<String> texts = EmbedInputs.texts(request, legacy ? "prompt" : "input");
        String why = IndexBuilding.reasonForTexts(texts);
        if (why != null) {
            return new NotARunCall(name(), why);
        }
        String model = Bodies.label(request, "model");
        if (!Bodies.succeeded(call)) {
            return new EmbedDetail(name(), model, List.copyOf(texts), List.of(), TokenUsage.UNKNOWN);
        }
        JsonNode reply = Bodies.responseJson(call);
        List<float[]> vectors = legacy
                ? List.of(Vectors.decode(reply.get("embedding"), "embedding"))
                : EmbedInputs.vectors(reply.get("embeddings"), "embeddings", texts.size());
        return new EmbedDetail(name(), model, List.copyOf(texts), vectors,
                Usage.of(reply, "prompt_eval_count", null));
    }
}
