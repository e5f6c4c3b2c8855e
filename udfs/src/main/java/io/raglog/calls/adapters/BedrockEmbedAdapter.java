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
 * Embedding models on Amazon Bedrock, invoked with their own bodies ({@code POST /model/{modelId}/invoke}, as
 * LangChain's {@code BedrockEmbeddings} and LlamaIndex's {@code BedrockEmbedding} call them): Amazon Titan's
 * {@code inputText}, one text a call, its vector in {@code embedding} (or {@code embeddingsByType.float}); Cohere's
 * {@code texts} with an {@code input_type} that says queries from documents (index building), its vectors in
 * {@code embeddings} as on Cohere's own API. Titan says no input type, so only its length tells a document from a
 * query ({@link IndexBuilding}).
 */
public final class BedrockEmbedAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "bedrock.embed";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        if (!e.isPost() || !e.pathEndsWith("/invoke") || e.bedrockModel() == null) {
            return false;
        }
        JsonNode request = Bodies.request(call);
        // Titan's text generation takes inputText too, beside its textGenerationConfig
        return request.has("inputText") && !request.has("textGenerationConfig") || request.has("texts");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        String model = Endpoint.of(call).bedrockModel();
        boolean titan = !request.has("texts");
        List<String> texts = titan ? List.of(Bodies.requireText(request, "inputText"))
                : List.copyOf(EmbedInputs.texts(request, "texts"));
        String why = IndexBuilding.reasonFor(titan ? null : Bodies.label(request, "input_type"), texts);
        if (why != null) {
            return new NotARunCall(name(), why);
        }
        if (!Bodies.succeeded(call)) {
            return new EmbedDetail(name(), model, texts, List.of(), TokenUsage.UNKNOWN);
        }
        JsonNode reply = Bodies.responseJson(call);
        if (titan) {
            JsonNode vector = reply.has("embedding") ? reply.get("embedding")
                    : reply.path("embeddingsByType").get("float");
            return new EmbedDetail(name(), model, texts, List.of(Vectors.decode(vector, "embedding")),
                    Usage.of(reply, "inputTextTokenCount", null));
        }
        return new EmbedDetail(name(), model, texts, CohereEmbedAdapter.vectors(reply, texts.size()),
                TokenUsage.UNKNOWN);
    }
}
