package io.raglog.calls.adapters.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.CallDetail;
import io.raglog.calls.EmbedDetail;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.adapters.IndexBuilding;
import io.raglog.schemas.TokenUsage;
import java.util.ArrayList;
import java.util.List;

/**
 * An embedding call's texts and vectors as tracing SDKs serialize the call's arguments and result whole into one span
 * attribute (Langfuse's observation input and output, MLflow's span inputs and outputs).
 */
final class SerializedEmbeddings {

    /**
     * The argument that holds the texts: OpenAI's {@code input}, LangChain's {@code texts} / {@code text}, LlamaIndex's
     * {@code query}.
     */
    private static final List<String> TEXT_ARGUMENTS = List.of("input", "texts", "text", "query");

    private SerializedEmbeddings() {}

    /**
     * The embedding call a span records; a call outside any run when it embedded a batch of documents for the index,
     * traced through the same SDK. Vectors are matched to texts by position: kept only when there is one for each.
     *
     * @param outputKey the attribute that held the output, to name in an error
     * @throws AdapterException when a vector holds something other than numbers
     */
    static CallDetail detail(String adapter, String model, JsonNode input, JsonNode output, String outputKey,
            Integer inputTokens) throws AdapterException {
        List<String> texts = texts(input);
        List<float[]> vectors = vectors(output, outputKey);
        String indexing = IndexBuilding.reasonForTexts(texts);
        if (indexing != null) {
            return new NotARunCall(adapter, indexing);
        }
        return new EmbedDetail(adapter, model, List.copyOf(texts),
                vectors.size() == texts.size() ? List.copyOf(vectors) : List.of(), new TokenUsage(inputTokens, null));
    }

    /**
     * The texts embedded, in order: a string, a list of them, or either under its argument's name. Inputs sent as
     * token ids (LangChain's OpenAI client does by default) give none.
     */
    private static List<String> texts(JsonNode input) {
        List<String> texts = new ArrayList<>();
        if (input == null) {
            return texts;
        }
        if (input.isTextual()) {
            texts.add(input.textValue());
        } else if (input.isArray()) {
            for (JsonNode item : input) {
                if (item.isTextual()) {
                    texts.add(item.textValue());
                }
            }
        } else if (input.isObject()) {
            for (String argument : TEXT_ARGUMENTS) {
                JsonNode value = input.get(argument);
                if (value != null && (value.isTextual() || value.isArray())) {
                    return texts(value);
                }
            }
        }
        return texts;
    }

    /**
     * The vectors returned, in order: one (a list of numbers), several (a list of them), or OpenAI's response
     * ({@code data[].embedding}); none when the value is absent or of another shape (an application's own summary of
     * the result), since the texts and the model still mark the call.
     *
     * @param what the attribute, to name in the error
     * @throws AdapterException when a vector holds something other than numbers
     */
    private static List<float[]> vectors(JsonNode output, String what) throws AdapterException {
        List<float[]> vectors = new ArrayList<>();
        if (output == null) {
            return vectors;
        }
        JsonNode data = output.get("data");
        if (output.isObject() && data != null && data.isArray()) {
            for (int i = 0; i < data.size(); i++) {
                addVector(vectors, data.get(i).get("embedding"), what + ".data[" + i + "].embedding");
            }
        } else if (output.isArray() && !output.isEmpty() && output.get(0).isNumber()) {
            addVector(vectors, output, what);
        } else if (output.isArray()) {
            for (int i = 0; i < output.size(); i++) {
                addVector(vectors, output.get(i), what + "[" + i + "]");
            }
        }
        return vectors;
    }

    private static void addVector(List<float[]> vectors, JsonNode value, String what) throws AdapterException {
        float[] vector = Vectors.of(value, what);
        if (vector != null) {
            vectors.add(vector);
        }
    }
}
