package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
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
 * Anthropic Messages ({@code /v1/messages}). {@code system} is a string or text blocks; message content is a
 * string or blocks ({@code text}, {@code tool_result}, {@code document}, {@code search_result}). Streamed replies are
 * SSE: usage's input side in {@code message_start}, text in {@code content_block_delta} / {@code text_delta}, the
 * final output token count in {@code message_delta}. Claude on Amazon Bedrock takes the same body through
 * {@code /model/{modelId}/invoke} (the model in the path, {@code anthropic_version} in the body), streamed as the
 * same events inside the AWS event stream's chunks ({@link BedrockChunks}). Claude on Google's Vertex AI takes it
 * through {@code …/publishers/anthropic/models/{model}:rawPredict} (the model in the path, {@code anthropic_version}
 * in the body), streamed through {@code :streamRawPredict} as Anthropic's own server-sent events.
 */
public final class AnthropicMessagesAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "anthropic.messages";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        if (!e.isPost() || e.pathContains("/threads/")) {
            return false; // OpenAI Assistants' /threads/{id}/messages is not a model call
        }
        if (BedrockChunks.isInvoke(e) && e.bedrockModel() != null) {
            return Bodies.request(call).has("anthropic_version"); // Claude on Bedrock: its Messages body, invoked
        }
        if (e.isRawPredict()) {
            return Bodies.request(call).has("anthropic_version"); // Claude on Vertex AI, as Bedrock's
        }
        return e.pathEndsWith("/v1/messages")
                || (e.pathEndsWith("/messages") && call.request().header("anthropic-version") != null);
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        List<ChatMessage> messages = messages(request);
        Endpoint e = Endpoint.of(call);
        String model = Bodies.label(request, "model");
        boolean bedrock = model == null && e.bedrockModel() != null;
        if (bedrock) {
            model = e.bedrockModel(); // Bedrock names the model in the path, and the body names none
        } else if (model == null && e.isRawPredict()) {
            model = e.modelBeforeMethod(); // so does Vertex AI
        }
        JsonNode reply = Bodies.response(call);
        boolean streamed = Bodies.flag(request, "stream") || Sse.isStream(reply) || e.pathEndsWith("-stream")
                || e.pathEndsWith(":streamRawPredict");
        if (!Bodies.succeeded(call) || "error".equals(Bodies.label(reply, "type"))) {
            return ChatDetails.of(name(), model, messages, null, TokenUsage.UNKNOWN, streamed);
        }
        if (Sse.isStream(reply) || (streamed && reply.isArray())) {
            return fromStream(messages, model, reply, bedrock);
        }
        if (!reply.isObject()) {
            throw new AdapterException("response body is " + Bodies.describe(reply) + ", expected a message");
        }
        String output = "tool_use".equals(Bodies.label(reply, "stop_reason")) ? toolInputs(reply.get("content"))
                : Bodies.replyText(reply.get("content"), "content");
        String replyModel = Bodies.label(reply, "model");
        return ChatDetails.of(name(), replyModel != null ? replyModel : model, messages, output,
                usage(reply.get("usage"), null), false);
    }

    /** A turn that stopped to use a tool: what it asked of the tools, else its text. */
    private static String toolInputs(JsonNode content) throws AdapterException {
        String inputs = toolUses(content);
        return inputs.isEmpty() ? Bodies.replyText(content, "content") : inputs;
    }

    /** The inputs of a turn's {@code tool_use} blocks, a line each ({@link ChatMessages#toolInputs}); empty if none. */
    private static String toolUses(JsonNode content) {
        return ChatMessages.toolInputs(content,
                part -> "tool_use".equals(part.path("type").asText()) ? part : MissingNode.getInstance(), "input");
    }

    private CallDetail fromStream(List<ChatMessage> messages, String model, JsonNode reply, boolean bedrock)
            throws AdapterException {
        AnthropicStream stream = new AnthropicStream(model);
        Sse.readChunks(reply, bedrock ? BedrockChunks.unwrapping(stream) : stream);
        String output = stream.toolInput().isBlank() ? stream.text() : stream.toolInput();
        return ChatDetails.of(name(), stream.model(), messages, output, stream.usage(), true);
    }

    private static List<ChatMessage> messages(JsonNode request) throws AdapterException {
        List<ChatMessage> out = new ArrayList<>();
        JsonNode system = request.get("system");
        if (system != null && !system.isNull()) {
            String text = system.isTextual() ? system.textValue() : textBlocks(system, "system");
            if (!text.isBlank()) {
                out.add(new ChatMessage("system", text));
            }
        }
        JsonNode messages = Bodies.requireArray(request, "messages");
        int i = 0;
        for (JsonNode m : messages) {
            if (!m.isObject()) {
                throw new AdapterException("'messages[" + i + "]' is " + Bodies.describe(m) + ", expected an object");
            }
            JsonNode content = m.get("content");
            String text = content != null && content.isTextual() ? content.textValue()
                    : textBlocks(content, "messages[" + i + "].content");
            // an agent's earlier turn that called a tool: what it asked of it, as its reply was read
            String calls = toolUses(content);
            text = calls.isEmpty() ? text : calls;
            // Claude takes a tool's results in a user turn; read as what they are, a tool's output, so that the
            // question stays the user's own turn before them (the agentic loop as OpenAI's tool role gives it)
            boolean toolResults = Bodies.everyElement(content, b -> "tool_result".equals(b.path("type").asText()));
            out.add(new ChatMessage(toolResults ? "tool" : Bodies.text(m, "role"), text));
            i++;
        }
        return out;
    }

    /**
     * Text of content blocks, joined. Tool results keep their text (agentic RAG returns passages that way), and
     * document and search result blocks (the citations feature) become {@code <document>} elements so the prompt
     * reader finds them as the context block.
     */
    private static String textBlocks(JsonNode blocks, String field) throws AdapterException {
        if (blocks == null || blocks.isNull()) {
            return "";
        }
        if (!blocks.isArray()) {
            throw new AdapterException("'" + field + "' is " + Bodies.describe(blocks) + ", expected blocks");
        }
        StringBuilder sb = new StringBuilder();
        for (JsonNode block : blocks) {
            String type = block.path("type").asText("text");
            String text = null;
            if ("text".equals(type) && block.path("text").isTextual()) {
                text = block.get("text").textValue();
            } else if ("tool_result".equals(type)) {
                JsonNode c = block.get("content");
                text = c != null && c.isTextual() ? c.textValue() : textBlocks(c, field + ".tool_result");
            } else if ("document".equals(type)) {
                text = document(block);
            } else if ("search_result".equals(type)) {
                text = searchResult(block);
            }
            if (text != null && !text.isEmpty()) {
                if (sb.length() > 0) {
                    sb.append('\n');
                }
                sb.append(text);
            }
        }
        return sb.toString();
    }

    /**
     * A search result block, the form Claude cites a RAG pipeline's passages in (given in the message or returned by a
     * retrieval tool): its text blocks, as one {@code <document>} element titled as the result is.
     */
    private static String searchResult(JsonNode block) {
        String text = GroundingDocuments.textParts(block.path("content"));
        return text.isBlank() ? null : GroundingDocuments.element(block.path("title").asText(""), text.strip());
    }

    private static String document(JsonNode block) {
        JsonNode source = block.path("source");
        String data = null;
        if (source.path("data").isTextual() && "text".equals(source.path("type").asText())) {
            data = source.get("data").textValue();
        } else if ("content".equals(source.path("type").asText())) {
            data = GroundingDocuments.textParts(source.path("content"));
        }
        if (data == null || data.isBlank()) {
            return null; // a PDF or an image: no text to read
        }
        return GroundingDocuments.element(block.path("title").asText(""), data);
    }

    /** Token counts of a reply's or a stream event's usage; what it leaves out is taken from {@code before}. */
    static TokenUsage usage(JsonNode usage, TokenUsage before) throws AdapterException {
        if (usage == null || !usage.isObject()) {
            return before == null ? TokenUsage.UNKNOWN : before;
        }
        Integer input = Bodies.integer(usage, "input_tokens");
        if (input != null) {
            // Cached prompt tokens are billed and counted apart; the prompt the model saw is their sum.
            Integer created = Bodies.integer(usage, "cache_creation_input_tokens");
            Integer read = Bodies.integer(usage, "cache_read_input_tokens");
            input = input + (created == null ? 0 : created) + (read == null ? 0 : read);
        } else if (before != null) {
            input = before.inputTokens();
        }
        Integer output = Bodies.integer(usage, "output_tokens");
        if (output == null && before != null) {
            output = before.outputTokens();
        }
        return input == null && output == null ? TokenUsage.UNKNOWN : new TokenUsage(input, output);
    }
}
