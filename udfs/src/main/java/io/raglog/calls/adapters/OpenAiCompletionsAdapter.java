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
import java.util.ArrayList;
import java.util.List;

/**
 * The legacy OpenAI-compatible {@code /completions} (still served by vLLM, LiteLLM, Azure and OpenAI for
 * {@code gpt-3.5-turbo-instruct}). The whole prompt, context included, is one {@code prompt} string (or an array
 * holding one); it becomes a single user message so prompt reading works as for chat, or the messages a chat template
 * wrote into it when the client applied its model's template itself ({@link PromptTemplates}).
 */
public final class OpenAiCompletionsAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "openai.completions";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.isPost() && e.pathEndsWith("/completions") && !e.pathEndsWith("/chat/completions");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        List<ChatMessage> messages = PromptTemplates.messages(prompt(request.get("prompt")));
        String model = OpenAiModels.requested(call, request);
        JsonNode reply = Bodies.response(call);
        boolean streamed = Bodies.flag(request, "stream") || Sse.isStream(reply);
        if (!Bodies.succeeded(call)) {
            return ChatDetails.of(name(), model, messages, null, TokenUsage.UNKNOWN, streamed);
        }
        List<JsonNode> parts = new ArrayList<>();
        if (Sse.isStream(reply) || (streamed && reply.isArray())) {
            // each chunk whole: legacy completions are streamed rarely enough not to need a reader of their own
            Sse.readChunks(reply, (chunk, event) -> parts.add(ChunkFields.tree(chunk)));
        } else {
            parts.add(Bodies.responseJson(call));
        }
        StringBuilder output = new StringBuilder();
        TokenUsage usage = TokenUsage.UNKNOWN;
        String replyModel = null;
        for (JsonNode part : parts) {
            if (replyModel == null) {
                replyModel = Bodies.label(part, "model");
            }
            JsonNode choices = Bodies.array(part, "choices");
            if (choices != null) {
                for (JsonNode choice : choices) {
                    if (choice.path("index").asInt(0) == 0 && choice.path("text").isTextual()) {
                        output.append(choice.get("text").textValue());
                    }
                }
            }
            if (part.path("usage").isObject()) {
                usage = Usage.openAi(part.get("usage"));
            }
        }
        return ChatDetails.of(name(), replyModel != null ? replyModel : model, messages, output.toString(), usage,
                streamed);
    }

    /** The prompt text: a string, or the first of an array of strings (a batch; pipelines send one). */
    private static String prompt(JsonNode prompt) throws AdapterException {
        if (prompt == null || prompt.isNull()) {
            throw new AdapterException("'prompt' is missing");
        }
        if (prompt.isTextual()) {
            return prompt.textValue();
        }
        if (prompt.isArray() && prompt.size() > 0 && prompt.get(0).isTextual()) {
            return prompt.get(0).textValue();
        }
        if (prompt.isArray() && prompt.size() > 0 && prompt.get(0).isNumber()) {
            return ""; // token ids: the text is not recoverable without the model's tokenizer
        }
        throw new AdapterException("'prompt' is " + Bodies.describe(prompt) + ", expected a string or strings");
    }
}
