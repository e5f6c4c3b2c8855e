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
 * in a final chunk whose {@code choices} is empty when the request set {@code stream_options.include_usage}.
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
        }
        String replyModel = Bodies.label(reply, "model");
        return ChatDetails.of(name(), replyModel != null ? replyModel : model, messages, output,
                Usage.openAi(reply.get("usage")), false);
    }

    private CallDetail fromStream(List<ChatMessage> messages, String model, JsonNode reply)
            throws AdapterException {
        OpenAiChatStream stream = new OpenAiChatStream();
        Sse.readChunks(reply, stream);
        return ChatDetails.of(name(), stream.model() != null ? stream.model() : model, messages, stream.output(),
                stream.usage(), true);
    }
}
