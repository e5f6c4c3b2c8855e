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
 * OpenAI-compatible {@code /chat/completions}: OpenAI, Azure OpenAI ({@code /openai/deployments/{dep}/chat/completions},
 * the model in the path), vLLM, Ollama's {@code /v1}, LiteLLM and the many servers that copy the shape. Replies are
 * a JSON completion, or an SSE stream of {@code chat.completion.chunk}s ending in {@code data: [DONE]}, with usage
 * in a final chunk whose {@code choices} is empty when the request set {@code stream_options.include_usage}. Azure
 * OpenAI's "on your data" documents, named in the reply's {@code context}, are read as the prompt's passages.
 * Google's Vertex AI serves the shape twice: at {@code …/endpoints/openapi/chat/completions} (Llama and other open
 * models), and through {@code …/publishers/mistralai/models/{model}:rawPredict} (and {@code :streamRawPredict}) for
 * partner models that take OpenAI's body, the model in the path when the body names none; Claude's Messages body
 * there is {@link AnthropicMessagesAdapter}'s.
 */
public final class OpenAiChatAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "openai.chat";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        if (e.isPost() && e.isRawPredict()) {
            JsonNode request = Bodies.request(call);
            return request.path("messages").isArray() && !request.has("anthropic_version");
        }
        return e.isPost() && e.pathEndsWith("/chat/completions");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        List<ChatMessage> messages = ChatMessages.openAi(request.get("messages"));
        String model = OpenAiModels.requested(call, request);
        JsonNode reply = Bodies.response(call);
        boolean streamed = Bodies.flag(request, "stream") || Sse.isStream(reply);
        if (!Bodies.succeeded(call)) {
            return ChatDetails.of(name(), model, messages, null, TokenUsage.UNKNOWN, streamed);
        }
        if (Sse.isStream(reply) || (streamed && reply.isArray())) {
            return fromStream(messages, model, reply);
        }
        if (!reply.isObject()) {
            throw new AdapterException("response body is " + Bodies.describe(reply) + ", expected a chat completion");
        }
        String output = "";
        JsonNode choices = Bodies.array(reply, "choices");
        if (choices != null && choices.size() > 0) {
            JsonNode message = choices.get(0).path("message");
            output = Bodies.contentText(message.get("content"), "choices[0].message.content");
            if (output.isEmpty()) {
                output = ChatMessages.toolCallArguments(message.get("tool_calls"));
            }
            withRetrievedDocuments(messages, message.get("context"));
        }
        String replyModel = Bodies.label(reply, "model");
        return ChatDetails.of(name(), replyModel != null ? replyModel : model, messages, output,
                Usage.openAi(reply.get("usage")), false);
    }

    /**
     * Azure OpenAI "on your data" (a request with {@code data_sources}) retrieves from Azure AI Search or another store
     * itself and hands the model the documents, which no message holds; the reply's {@code context} names them:
     * {@code all_retrieved_documents} when the request asked for them (those not filtered out are what the model read),
     * else the {@code citations}. They are written into the prompt as the generator's passages.
     */
    private static void withRetrievedDocuments(List<ChatMessage> messages, JsonNode context) {
        if (context == null || !context.isObject()) {
            return;
        }
        JsonNode all = context.path("all_retrieved_documents");
        boolean retrieved = all.isArray() && !all.isEmpty();
        StringBuilder sb = new StringBuilder();
        for (JsonNode document : retrieved ? all : context.path("citations")) {
            JsonNode content = document.path("content");
            boolean filtered = retrieved && document.path("filter_reason").isTextual();
            if (content.isTextual() && !content.textValue().isBlank() && !filtered) {
                String title = document.path("title").isTextual() ? document.get("title").textValue()
                        : document.path("filepath").asText("");
                sb.append(sb.length() > 0 ? "\n" : "").append(GroundingDocuments.element(title,
                        content.textValue().strip()));
            }
        }
        GroundingDocuments.intoLastUserMessage(messages, sb.toString());
    }

    private CallDetail fromStream(List<ChatMessage> messages, String model, JsonNode reply)
            throws AdapterException {
        OpenAiChatStream stream = new OpenAiChatStream();
        Sse.readChunks(reply, stream);
        withRetrievedDocuments(messages, stream.context());
        return ChatDetails.of(name(), stream.model() != null ? stream.model() : model, messages, stream.output(),
                stream.usage(), true);
    }
}
