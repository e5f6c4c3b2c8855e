package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.calls.ChatDetails;
import io.raglog.calls.ChatMessage;
import io.raglog.calls.NotARunCall;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.TokenUsage;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Ollama's native {@code /api/chat} and {@code /api/generate}. Ollama streams by default: unless the request says
 * {@code "stream": false} the reply is NDJSON, one object per token batch ({@code message.content} or
 * {@code response}), the last with {@code done: true} and the token counts ({@code prompt_eval_count},
 * {@code eval_count}).
 */
public final class OllamaChatAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "ollama.chat";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.isPost() && (e.pathEndsWith("/api/chat") || e.pathEndsWith("/api/generate"));
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        boolean generate = Endpoint.of(call).pathEndsWith("/api/generate");
        List<ChatMessage> messages = generate ? generateMessages(request) : ChatMessages.openAi(request.get("messages"));
        if (messages.isEmpty()) {
            // Ollama documents an empty prompt or message list as "load the model into memory".
            return new NotARunCall(name(), "model load: no prompt or messages");
        }
        String model = Bodies.label(request, "model");
        JsonNode streamFlag = request.get("stream");
        boolean streamed = streamFlag == null || streamFlag.asBoolean(true);
        if (!Bodies.succeeded(call)) {
            return ChatDetails.of(name(), model, messages, null, TokenUsage.UNKNOWN, streamed);
        }
        List<JsonNode> lines = Ndjson.objects(Bodies.response(call));
        StringBuilder output = new StringBuilder();
        TokenUsage usage = TokenUsage.UNKNOWN;
        for (JsonNode line : lines) {
            if (line.has("error")) {
                break; // an error line mid-stream: keep what arrived
            }
            JsonNode piece = generate ? line.get("response") : line.path("message").get("content");
            if (piece != null && piece.isTextual()) {
                output.append(piece.textValue());
            }
            if (line.path("done").asBoolean(false)) {
                usage = Usage.of(line, "prompt_eval_count", "eval_count");
                model = line.path("model").isTextual() ? line.get("model").textValue() : model;
            }
        }
        return ChatDetails.of(name(), model, messages, output.toString(), usage, streamed || lines.size() > 1);
    }

    private static List<ChatMessage> generateMessages(JsonNode request) throws AdapterException {
        List<ChatMessage> out = new ArrayList<>();
        String system = Bodies.text(request, "system");
        if (system != null && !system.isBlank()) {
            out.add(new ChatMessage("system", system));
        }
        String prompt = Bodies.text(request, "prompt");
        if (prompt != null && !prompt.isEmpty()) {
            // with raw: true the client writes the model's template itself; the turns it wrote are the messages
            out.addAll(Bodies.flag(request, "raw") ? PromptTemplates.messages(prompt)
                    : List.of(new ChatMessage("user", prompt)));
        }
        return out;
    }
}
