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
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Amazon Bedrock's Converse API ({@code POST /model/{modelId}/converse} and {@code …/converse-stream}), the one
 * request shape Bedrock serves for every chat model and the one LangChain's {@code ChatBedrockConverse} and
 * LlamaIndex's {@code BedrockConverse} call; Amazon Nova's own {@code invoke} body ({@code messages-v1}) is the same
 * shape, and a model invoked with OpenAI's chat body (Mistral Large, Jamba, gpt-oss) is read the same way, its reply
 * in OpenAI's shape. Messages are {@code content} blocks: text, a {@code document} (the passages, as Anthropic's
 * document blocks are, written as {@code <document>} elements so the prompt rules read them), a tool result, guarded
 * text; the reply is {@code output.message.content}, cited spans in {@code citationsContent}. A streamed reply is an
 * AWS event stream, which the proxy records as server-sent events by their {@code :event-type}: text in {@code
 * contentBlockDelta}, token counts in {@code metadata}; an exception event ends it and what arrived is kept; a tool
 * call's input in {@code contentBlockDelta} too, read as the reply when {@code messageStop} says the turn stopped to
 * use a tool (a non-streamed reply's {@code toolUse} blocks are read alike). Through
 * {@code invoke-with-response-stream} each event is a {@code chunk} whose {@code bytes} hold the model's own event
 * ({@link BedrockChunks}).
 */
public final class BedrockConverseAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    /** Document formats whose bytes are text; a PDF or a spreadsheet carries none raglog can read. */
    private static final Set<String> TEXT_FORMATS = Set.of("txt", "md", "html", "csv");

    @Override
    public String name() {
        return "bedrock.converse";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        // the path's end first: every call of the adapters tried after this one asks, and few are Bedrock's
        boolean converse = e.pathEndsWith("/converse") || e.pathEndsWith("/converse-stream");
        if (!e.isPost() || !converse && !BedrockChunks.isInvoke(e) || e.bedrockModel() == null) {
            return false;
        }
        JsonNode request = Bodies.request(call);
        return converse || request.has("messages") && !request.has("anthropic_version");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        Endpoint e = Endpoint.of(call);
        List<ChatMessage> messages = messages(request);
        String model = e.bedrockModel();
        JsonNode reply = Bodies.response(call);
        boolean streamed = e.pathEndsWith("-stream") || Sse.isStream(reply);
        if (!Bodies.succeeded(call)) {
            return ChatDetails.of(name(), model, messages, null, TokenUsage.UNKNOWN, streamed);
        }
        if (Sse.isStream(reply)) {
            Reply stream = new Reply();
            Sse.readChunks(reply, (chunk, event) -> BedrockChunks.read(chunk, event, stream::take));
            return ChatDetails.of(name(), model, messages, stream.output(), stream.usage, true);
        }
        if (!reply.isObject()) {
            throw new AdapterException("response body is " + Bodies.describe(reply) + ", expected output.message");
        }
        if (reply.has("choices")) { // a model invoked with OpenAI's chat body answers in OpenAI's shape
            JsonNode message = reply.path("choices").path(0).path("message");
            return ChatDetails.of(name(), model, messages, Bodies.contentText(message.get("content"),
                    "choices[0].message.content"), Usage.openAi(reply.get("usage")), false);
        }
        JsonNode content = reply.path("output").path("message").get("content");
        String output = replyText(content);
        if ("tool_use".equals(Bodies.label(reply, "stopReason"))) {
            String inputs = toolUses(content);
            output = inputs.isEmpty() ? output : inputs;
        }
        return ChatDetails.of(name(), model, messages, output, usage(reply.get("usage")), false);
    }

    /**
     * What a streamed reply's events add up to: the text deltas, or the tool calls' input pieces when the turn stopped
     * to use a tool; the last usage; nothing after an exception.
     */
    private static final class Reply {
        private final StringBuilder text = new StringBuilder();
        /** The {@code toolUse.input} pieces of the deltas, a line per content block (one tool call each). */
        private final StringBuilder toolInputs = new StringBuilder();
        private int toolBlock = -1;
        private boolean stoppedForTool;
        private TokenUsage usage = TokenUsage.UNKNOWN;
        private boolean ended;

        /** As a whole reply is read: the tool calls' inputs when the turn stopped for them, else the text. */
        String output() {
            return stoppedForTool && !toolInputs.isEmpty() ? toolInputs.toString() : text.toString();
        }

        void take(String event, JsonNode payload) throws AdapterException {
            if (ended || event == null) {
                return;
            }
            if (event.equals("contentBlockDelta")) {
                JsonNode delta = payload.path("delta");
                if (delta.path("text").isTextual()) {
                    text.append(delta.get("text").textValue());
                } else if (delta.path("toolUse").path("input").isTextual()) {
                    // an agent's search call: its input JSON, in pieces, in the tool call's own block
                    int block = payload.path("contentBlockIndex").asInt(-1);
                    if (block != toolBlock && !toolInputs.isEmpty()) {
                        toolInputs.append('\n');
                    }
                    toolBlock = block;
                    toolInputs.append(delta.get("toolUse").get("input").textValue());
                }
            } else if (event.equals("messageStop")) {
                stoppedForTool = "tool_use".equals(Bodies.label(payload, "stopReason"));
            } else if (event.equals("metadata")) {
                TokenUsage counted = usage(payload.get("usage"));
                usage = counted.equals(TokenUsage.UNKNOWN) ? usage : counted;
            } else if (event.equals("choices")) { // an OpenAI-shaped chunk's choices (its fields come one by one)
                JsonNode delta = payload.path(0).path("delta").path("content");
                if (delta.isTextual()) {
                    text.append(delta.textValue());
                }
            } else if (event.equals("usage") && payload.has("prompt_tokens")) {
                usage = Usage.openAi(payload);
            } else if (BedrockChunks.isError(event)) {
                ended = true; // throttled or failed mid-stream: what arrived is what the client got
            }
        }
    }

    private static List<ChatMessage> messages(JsonNode request) throws AdapterException {
        List<ChatMessage> out = new ArrayList<>();
        JsonNode system = request.get("system");
        if (system != null && !system.isNull()) {
            String text = blocks(system, "system");
            if (!text.isBlank()) {
                out.add(new ChatMessage("system", text));
            }
        }
        JsonNode messages = Bodies.requireArray(request, "messages");
        for (int i = 0; i < messages.size(); i++) {
            JsonNode m = messages.get(i);
            if (!m.isObject()) {
                throw new AdapterException("'messages[" + i + "]' is " + Bodies.describe(m) + ", expected an object");
            }
            // a turn of tool results alone is the tool's output, though Converse sends it as the user's
            String role = Bodies.everyElement(m.get("content"), b -> b.has("toolResult")) ? "tool"
                    : Bodies.text(m, "role");
            // an agent's earlier turn that called a tool: what it asked of it, as its reply is read
            String calls = toolUses(m.get("content"));
            out.add(new ChatMessage(role, calls.isEmpty() ? blocks(m.get("content"), "messages[" + i + "].content")
                    : calls));
        }
        return out;
    }

    /** The inputs of a turn's {@code toolUse} blocks, a line each ({@link ChatMessages#toolInputs}); empty for none. */
    private static String toolUses(JsonNode content) {
        return ChatMessages.toolInputs(content, block -> block.path("toolUse"), "input");
    }

    /** The text of a request's content blocks, one a line, as the model reads them. */
    private static String blocks(JsonNode blocks, String field) throws AdapterException {
        if (blocks == null || blocks.isNull()) {
            return "";
        }
        if (blocks.isTextual()) {
            return blocks.textValue();
        }
        if (!blocks.isArray()) {
            throw new AdapterException("'" + field + "' is " + Bodies.describe(blocks) + ", expected content blocks");
        }
        StringBuilder sb = new StringBuilder();
        for (JsonNode block : blocks) {
            String text = blockText(block, field);
            if (text != null && !text.isEmpty()) {
                sb.append(sb.length() > 0 ? "\n" : "").append(text);
            }
        }
        return sb.toString();
    }

    private static String blockText(JsonNode block, String field) throws AdapterException {
        if (block.path("text").isTextual()) {
            return block.get("text").textValue();
        }
        if (block.has("document")) {
            return document(block.get("document"));
        }
        if (block.has("toolResult")) {
            // agentic RAG hands the passages back as a tool's result: its text, and JSON results as written, each
            // part a paragraph of its own (a retrieval tool returns a part per passage)
            StringBuilder sb = new StringBuilder();
            for (JsonNode part : block.get("toolResult").path("content")) {
                String text = part.path("text").isTextual() ? part.get("text").textValue()
                        : part.has("json") ? part.get("json").toString() : null;
                if (text != null) {
                    sb.append(sb.length() > 0 ? "\n\n" : "").append(text);
                }
            }
            return sb.toString();
        }
        JsonNode guarded = block.path("guardContent").path("text").path("text");
        return guarded.isTextual() ? guarded.textValue() : null; // images, videos, cache points: no text
    }

    /** A document block as a {@code <document>} element, when its source is text; null for a PDF or an image. */
    private static String document(JsonNode document) throws AdapterException {
        JsonNode source = document.path("source");
        String data = null;
        if (source.path("text").isTextual()) {
            data = source.get("text").textValue();
        } else if (source.path("content").isArray()) {
            data = GroundingDocuments.textParts(source.get("content"));
        } else if (source.path("bytes").isTextual()
                && TEXT_FORMATS.contains(document.path("format").asText("").toLowerCase(Locale.ROOT))) {
            try {
                // the REST API carries a document's bytes as base64; the text formats' bytes are UTF-8
                data = new String(Base64.getDecoder().decode(source.get("bytes").textValue()),
                        java.nio.charset.StandardCharsets.UTF_8);
            } catch (IllegalArgumentException notBase64) {
                throw new AdapterException("document '" + document.path("name").asText("") + "' source.bytes is not "
                        + "base64");
            }
        }
        if (data == null || data.isBlank()) {
            return null;
        }
        return GroundingDocuments.element(document.path("name").asText(""), data);
    }

    /** A reply's text blocks and cited spans, joined as they are (a cited reply is a block per span and between). */
    private static String replyText(JsonNode content) throws AdapterException {
        if (content == null || !content.isArray()) {
            throw new AdapterException("'output.message.content' is " + Bodies.describe(content)
                    + ", expected content blocks");
        }
        StringBuilder sb = new StringBuilder();
        for (JsonNode block : content) {
            if (block.path("text").isTextual()) {
                sb.append(block.get("text").textValue());
            }
            for (JsonNode cited : block.path("citationsContent").path("content")) {
                if (cited.path("text").isTextual()) {
                    sb.append(cited.get("text").textValue());
                }
            }
        }
        return sb.toString();
    }

    /** Bedrock's token counts; cached prompt tokens are counted apart, and the prompt the model read is their sum. */
    static TokenUsage usage(JsonNode usage) throws AdapterException {
        if (usage == null || !usage.isObject()) {
            return TokenUsage.UNKNOWN;
        }
        Integer input = Bodies.integer(usage, "inputTokens");
        if (input != null) {
            Integer read = Bodies.integer(usage, "cacheReadInputTokens");
            Integer written = Bodies.integer(usage, "cacheWriteInputTokens");
            input = input + (read == null ? 0 : read) + (written == null ? 0 : written);
        }
        Integer output = Bodies.integer(usage, "outputTokens");
        return input == null && output == null ? TokenUsage.UNKNOWN : new TokenUsage(input, output);
    }
}
