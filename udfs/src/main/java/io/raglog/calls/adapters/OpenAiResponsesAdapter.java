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
 * OpenAI's Responses API ({@code /v1/responses}). {@code instructions} is the system prompt; {@code input} is a
 * string or a list of items (messages whose content is a string or {@code input_text} parts, tool outputs). The
 * reply's text is in {@code output[].content[]} parts of type {@code output_text}; streamed replies send
 * {@code response.output_text.delta} events and a final {@code response.completed} carrying usage. The passages a
 * {@code file_search} tool call handed the model (OpenAI's hosted retrieval) are read as the prompt's, when the
 * response includes them.
 */
public final class OpenAiResponsesAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "openai.responses";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.isPost() && e.pathEndsWith("/responses");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        List<ChatMessage> messages = messages(request);
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
            throw new AdapterException("response body is " + Bodies.describe(reply) + ", expected a response object");
        }
        withFileSearchResults(messages, reply);
        return ChatDetails.of(name(), firstNonNull(Bodies.label(reply, "model"), model), messages, outputText(reply),
                usage(reply.get("usage")), false);
    }

    private CallDetail fromStream(List<ChatMessage> messages, String model, JsonNode reply)
            throws AdapterException {
        OpenAiResponsesStream stream = new OpenAiResponsesStream();
        Sse.readChunks(reply, stream);
        model = firstNonNull(stream.createdModel(), model);
        JsonNode completed = stream.completed();
        String output = stream.deltas();
        TokenUsage usage = TokenUsage.UNKNOWN;
        if (completed != null && completed.isObject()) {
            model = firstNonNull(Bodies.label(completed, "model"), model);
            usage = usage(completed.get("usage"));
            withFileSearchResults(messages, completed);
            if (output.isEmpty()) {
                output = outputText(completed);
            }
        }
        return ChatDetails.of(name(), model, messages, output, usage, true);
    }

    private static List<ChatMessage> messages(JsonNode request) throws AdapterException {
        List<ChatMessage> out = new ArrayList<>();
        String instructions = Bodies.text(request, "instructions");
        if (instructions != null && !instructions.isBlank()) {
            out.add(new ChatMessage("system", instructions));
        }
        JsonNode input = request.get("input");
        if (input == null || input.isNull()) {
            throw new AdapterException("'input' is missing");
        }
        if (input.isTextual()) {
            out.add(new ChatMessage("user", input.textValue()));
            return out;
        }
        if (!input.isArray()) {
            throw new AdapterException("'input' is " + Bodies.describe(input) + ", expected a string or items");
        }
        int i = 0;
        for (JsonNode item : input) {
            String type = Bodies.label(item, "type");
            if ("function_call".equals(type) && item.path("arguments").isTextual()) {
                // an agent's earlier turn that called a tool: what it asked of it, as its reply is read
                out.add(new ChatMessage("assistant", item.get("arguments").textValue()));
            } else if ("function_call_output".equals(type)) {
                JsonNode output = item.get("output");
                out.add(new ChatMessage("tool", output != null && output.isTextual() ? output.textValue()
                        : Bodies.contentText(output, "input[" + i + "].output")));
            } else if (item.has("role")) {
                out.add(new ChatMessage(Bodies.text(item, "role"),
                        Bodies.contentText(item.get("content"), "input[" + i + "].content")));
            }
            i++;
        }
        return out;
    }

    /**
     * The passages a {@code file_search} tool call found and handed the model, when the request asked for them
     * ({@code include: ["file_search_call.results"]}): the generator's context, though no message holds it. Without
     * them the run's prompt shows no passages, as it shows none to the client.
     */
    private static void withFileSearchResults(List<ChatMessage> messages, JsonNode response) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode item : response.path("output")) {
            if (!"file_search_call".equals(item.path("type").asText())) {
                continue;
            }
            for (JsonNode result : item.path("results")) {
                JsonNode text = result.path("text");
                if (text.isTextual() && !text.textValue().isBlank()) {
                    sb.append(sb.length() > 0 ? "\n" : "").append(GroundingDocuments.element(
                            result.path("filename").asText(""), text.textValue().strip()));
                }
            }
        }
        GroundingDocuments.intoLastUserMessage(messages, sb.toString());
    }

    private static String outputText(JsonNode response) {
        StringBuilder sb = new StringBuilder();
        for (JsonNode item : response.path("output")) {
            if (!"message".equals(item.path("type").asText("message"))) {
                continue; // reasoning summaries, tool calls, web search results
            }
            for (JsonNode part : item.path("content")) {
                if ("output_text".equals(part.path("type").asText()) && part.path("text").isTextual()) {
                    sb.append(part.get("text").textValue());
                }
            }
        }
        if (sb.length() == 0 && response.path("output_text").isTextual()) {
            sb.append(response.get("output_text").textValue()); // the SDKs' convenience field, when a proxy kept it
        }
        if (sb.length() == 0) {
            // a turn that calls functions (an agent's search tool, in the Agents SDK): what it asked of them
            for (JsonNode item : response.path("output")) {
                if ("function_call".equals(item.path("type").asText()) && item.path("arguments").isTextual()) {
                    sb.append(sb.length() > 0 ? "\n" : "").append(item.get("arguments").textValue());
                }
            }
        }
        return sb.toString();
    }

    private static TokenUsage usage(JsonNode usage) throws AdapterException {
        return Usage.of(usage, "input_tokens", "output_tokens");
    }

    private static String firstNonNull(String a, String b) {
        return a != null ? a : b;
    }
}
