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
import java.util.Collections;
import java.util.List;

/**
 * OpenAI-compatible {@code /embeddings} (OpenAI, Azure, vLLM, Ollama's {@code /v1}, LiteLLM, Jina, Voyage).
 * {@code input} is a string, strings, or token ids (LangChain's {@code OpenAIEmbeddings} tokenises before sending).
 * Without {@code encoding_format} the official SDKs ask for base64, so each {@code embedding} may be a base64
 * string of little-endian float32 rather than an array: both decode. Index building (many texts, passage-length
 * texts, or an explicit {@code input_type: document}) is {@link NotARunCall}.
 */
public final class OpenAiEmbeddingsAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    /** Roughly four characters per token for English text; only used to size token-id inputs for the index rule. */
    private static final int CHARS_PER_TOKEN = 4;

    @Override
    public String name() {
        return "openai.embeddings";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.isPost() && e.pathEndsWith("/embeddings") && !e.pathEndsWith("/api/embeddings");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        Inputs inputs = readInput(request.get("input"));
        List<String> texts = inputs.texts;
        // Voyage says input_type "document", Jina's v3 says task "retrieval.passage": ingestion either way.
        String why = IndexBuilding.reasonForInputType(Bodies.label(request, "input_type"));
        if (why == null) {
            why = IndexBuilding.reasonForInputType(Bodies.label(request, "task"));
        }
        if (why == null) {
            why = IndexBuilding.reason(inputs.lengths);
        }
        if (why != null) {
            return new NotARunCall(name(), why);
        }
        String model = OpenAiModels.requested(call, request);
        if (!Bodies.succeeded(call)) {
            return new EmbedDetail(name(), model, Collections.unmodifiableList(texts), List.of(), TokenUsage.UNKNOWN);
        }
        JsonNode reply = Bodies.responseJson(call);
        JsonNode data = Bodies.requireArray(reply, "data");
        float[][] byIndex = new float[data.size()][];
        int i = 0;
        for (JsonNode item : data) {
            Integer index = Bodies.integer(item, "index");
            int at = index == null ? i : index;
            if (at < 0 || at >= byIndex.length) {
                throw new AdapterException("data[" + i + "].index " + at + " is out of range");
            }
            byIndex[at] = Vectors.decode(item.get("embedding"), "data[" + i + "].embedding");
            i++;
        }
        List<float[]> vectors = new ArrayList<>();
        for (float[] v : byIndex) {
            if (v != null) {
                vectors.add(v);
            }
        }
        String replyModel = Bodies.label(reply, "model");
        return new EmbedDetail(name(), replyModel != null ? replyModel : model, Collections.unmodifiableList(texts),
                List.copyOf(vectors), Usage.of(reply.get("usage"), "prompt_tokens", null));
    }

    /**
     * The texts sent and their lengths, in lists sized for them: index-building calls carry hundreds of inputs, and
     * growing the lists one by one was 3 % of the job's allocation (JFR, issue #27).
     */
    private static final class Inputs {
        final List<String> texts;
        final int[] lengths;

        Inputs(int count) {
            texts = new ArrayList<>(count);
            lengths = new int[count];
        }

        void add(String text, int length) {
            lengths[texts.size()] = length;
            texts.add(text);
        }
    }

    /**
     * The texts and their lengths. Token-id inputs have no text without the model's tokenizer: their text is
     * null (the vector still links the call to its retrieval) and their length is estimated from the token count.
     */
    private static Inputs readInput(JsonNode input) throws AdapterException {
        if (input == null || input.isNull()) {
            throw new AdapterException("'input' is missing");
        }
        if (input.isTextual()) {
            Inputs one = new Inputs(1);
            one.add(input.textValue(), input.textValue().length());
            return one;
        }
        if (!input.isArray()) {
            throw new AdapterException("'input' is " + Bodies.describe(input) + ", expected text or an array");
        }
        if (input.size() > 0 && input.get(0).isNumber()) {
            Inputs one = new Inputs(1);
            one.add(null, input.size() * CHARS_PER_TOKEN); // one text as token ids
            return one;
        }
        Inputs inputs = new Inputs(input.size());
        int i = 0;
        for (JsonNode item : input) {
            if (item.isTextual()) {
                inputs.add(item.textValue(), item.textValue().length());
            } else if (item.isArray()) {
                inputs.add(null, item.size() * CHARS_PER_TOKEN);
            } else {
                throw new AdapterException("'input[" + i + "]' is " + Bodies.describe(item)
                        + ", expected text or token ids");
            }
            i++;
        }
        return inputs;
    }
}
