package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.calls.ChatDetails;
import io.raglog.calls.ChatMessage;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.TokenUsage;
import java.io.Serializable;
import java.util.List;

/**
 * Text-completion models on Amazon Bedrock invoked with their own bodies ({@code POST /model/{modelId}/invoke} and
 * {@code …/invoke-with-response-stream}): Meta's Llama ({@code prompt}; reply {@code generation}), Mistral's
 * ({@code prompt}; {@code outputs[].text}), Cohere's Command ({@code prompt}; {@code generations[].text}) and Amazon
 * Titan Text ({@code inputText} with {@code textGenerationConfig}; {@code results[].outputText}). A chat written into
 * the prompt with the model's template is read back into its messages ({@link PromptTemplates}). Streamed, each
 * {@code chunk} carries the same fields with the next piece of text, the last one Bedrock's invocation metrics.
 */
public final class BedrockTextAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "bedrock.text";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        if (!e.isPost() || !BedrockChunks.isInvoke(e) || e.bedrockModel() == null) {
            return false;
        }
        JsonNode request = Bodies.request(call);
        return request.path("prompt").isTextual() && !request.has("messages")
                || request.has("inputText") && request.has("textGenerationConfig");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        Endpoint e = Endpoint.of(call);
        String prompt = request.has("prompt") ? Bodies.requireText(request, "prompt")
                : Bodies.requireText(request, "inputText");
        List<ChatMessage> messages = PromptTemplates.messages(prompt);
        String model = e.bedrockModel();
        JsonNode reply = Bodies.response(call);
        boolean streamed = e.pathEndsWith("-stream") || Sse.isStream(reply);
        if (!Bodies.succeeded(call)) {
            return ChatDetails.of(name(), model, messages, null, TokenUsage.UNKNOWN, streamed);
        }
        Completion completion = new Completion();
        if (Sse.isStream(reply)) {
            Sse.readChunks(reply, BedrockChunks.unwrapping((chunk, event) -> completion.add(ChunkFields.tree(chunk))));
        } else if (reply.isObject()) {
            completion.add(reply);
        } else {
            throw new AdapterException("response body is " + Bodies.describe(reply) + ", expected a completion");
        }
        return ChatDetails.of(name(), model, messages, completion.text.toString(), completion.usage(), streamed);
    }

    /** A completion's text and token counts, from a whole reply or added up over a stream's chunks. */
    private static final class Completion {
        private final StringBuilder text = new StringBuilder();
        private Integer input;
        private Integer output;
        private Integer outputPieces;

        void add(JsonNode piece) throws AdapterException {
            appendText(piece.get("generation"));
            appendText(piece.get("outputText"));
            for (String list : List.of("outputs", "generations")) {
                for (JsonNode item : piece.path(list)) {
                    appendText(item.get("text"));
                }
            }
            for (JsonNode result : piece.path("results")) {
                appendText(result.get("outputText"));
                outputPieces = sum(outputPieces, Bodies.integer(result, "tokenCount"));
            }
            input = first(input, Bodies.integer(piece, "prompt_token_count"), Bodies.integer(piece,
                    "inputTextTokenCount"));
            output = last(output, Bodies.integer(piece, "generation_token_count"), Bodies.integer(piece,
                    "totalOutputTextTokenCount"));
            JsonNode metrics = piece.path("amazon-bedrock-invocationMetrics");
            if (metrics.isObject()) { // a stream's last chunk: Bedrock's own count of the whole call
                input = first(Bodies.integer(metrics, "inputTokenCount"), input);
                output = first(Bodies.integer(metrics, "outputTokenCount"), output);
            }
        }

        TokenUsage usage() {
            Integer out = output != null ? output : outputPieces;
            return input == null && out == null ? TokenUsage.UNKNOWN : new TokenUsage(input, out);
        }

        private void appendText(JsonNode value) {
            if (value != null && value.isTextual()) {
                text.append(value.textValue());
            }
        }

        private static Integer first(Integer... values) {
            for (Integer v : values) {
                if (v != null) {
                    return v;
                }
            }
            return null;
        }

        private static Integer last(Integer before, Integer a, Integer b) {
            return a != null ? a : b != null ? b : before;
        }

        private static Integer sum(Integer a, Integer b) {
            return b == null ? a : a == null ? b : a + b;
        }
    }
}
