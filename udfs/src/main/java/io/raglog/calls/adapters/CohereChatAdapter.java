package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.calls.ChatDetails;
import io.raglog.calls.ChatMessage;
import io.raglog.calls.ChatRole;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.TokenUsage;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Cohere's Chat API, the grounded generation of a Cohere RAG pipeline: the passages go in the request's
 * {@code documents}, beside the messages, not inside a prompt. {@code /v2/chat} takes {@code messages} and documents
 * as strings or {@code {id, data: {title, snippet | text, …}}}; {@code /v1/chat} takes {@code message},
 * {@code preamble}, {@code chat_history} and documents as flat objects. The documents are written into the last user
 * message as {@code <document>} elements before its text, as Claude's document blocks are, so that the prompt rules
 * read them as the generator's passages and the message as its question. Replies: v2 {@code message.content} text
 * parts, v1 {@code text}; streamed, v2's server-sent {@code content-delta} events and v1's newline-delimited
 * {@code text-generation} events, their usage in the last event. Command R on Amazon Bedrock takes v1's body through
 * {@code /model/{modelId}/invoke}, the model in the path, its stream's events each in one of Bedrock's chunks.
 */
public final class CohereChatAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    /** A document's fields that hold its text, in the order they are read; the rest (ids, urls, dates) are not. */
    private static final List<String> TEXT_FIELDS = List.of("text", "snippet", "content", "body");

    @Override
    public String name() {
        return "cohere.chat";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        if (e.isPost() && BedrockChunks.isInvoke(e) && e.bedrockModel() != null) {
            return Bodies.request(call).has("message"); // Command R on Bedrock: v1's body, invoked
        }
        return e.isPost() && (e.pathEndsWith("/v2/chat") || e.pathEndsWith("/v1/chat"));
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        List<ChatMessage> messages = request.has("messages") ? v2Messages(request) : v1Messages(request);
        withDocuments(messages, Bodies.array(request, "documents"));
        Endpoint e = Endpoint.of(call);
        String model = Bodies.label(request, "model");
        boolean bedrock = model == null && e.bedrockModel() != null;
        if (bedrock) {
            model = e.bedrockModel(); // Bedrock names the model in the path, and the body none
        }
        boolean streamed = Bodies.flag(request, "stream") || e.pathEndsWith("-stream");
        if (!Bodies.succeeded(call)) {
            return ChatDetails.of(name(), model, messages, null, TokenUsage.UNKNOWN, streamed);
        }
        JsonNode reply = Bodies.response(call);
        if (bedrock && Sse.isStream(reply)) {
            List<JsonNode> lines = new ArrayList<>(); // v1's stream events, each in one of Bedrock's chunks
            Sse.readChunks(reply, BedrockChunks.unwrapping((chunk, event) -> lines.add(ChunkFields.tree(chunk))));
            return fromLines(messages, model, lines);
        }
        if (Sse.isStream(reply)) {
            return fromEvents(messages, model, reply);
        }
        if (reply != null && reply.isTextual() && reply.textValue().strip().startsWith("{")) {
            return fromLines(messages, model, Ndjson.objects(reply)); // v1's default stream: one JSON object a line
        }
        if (reply == null || !reply.isObject()) {
            throw new AdapterException("response body is " + Bodies.describe(reply) + ", expected a chat reply");
        }
        if (Bodies.flag(request, "search_queries_only")) {
            return searchQueries(messages, model, reply);
        }
        JsonNode message = Bodies.object(reply, "message");
        String output = message != null ? Bodies.replyText(message.get("content"), "message.content")
                : Bodies.text(reply, "text");
        JsonNode usage = reply.has("usage") ? reply.get("usage") : reply.get("meta");
        String replyModel = Bodies.label(reply, "model");
        return ChatDetails.of(name(), replyModel != null ? replyModel : model, messages, output == null ? "" : output,
                usage(usage), streamed);
    }

    /**
     * v1 with {@code search_queries_only}: Cohere writes the search queries for the message and answers nothing, the
     * rewrite stage of a Cohere RAG pipeline (its queries one a line); a message that needs no search is no stage.
     */
    private CallDetail searchQueries(List<ChatMessage> messages, String model, JsonNode reply) throws AdapterException {
        StringBuilder queries = new StringBuilder();
        for (JsonNode query : reply.path("search_queries")) {
            if (query.path("text").isTextual() && !query.get("text").textValue().isBlank()) {
                queries.append(queries.length() > 0 ? "\n" : "").append(query.get("text").textValue());
            }
        }
        return ChatDetails.withRole(name(), model, messages, queries.toString(), usage(reply.get("meta")), false,
                queries.length() > 0 ? ChatRole.REWRITE : ChatRole.OTHER);
    }

    private static List<ChatMessage> v2Messages(JsonNode request) throws AdapterException {
        List<ChatMessage> out = new ArrayList<>();
        JsonNode messages = Bodies.requireArray(request, "messages");
        for (int i = 0; i < messages.size(); i++) {
            JsonNode m = messages.get(i);
            String role = Bodies.label(m, "role");
            out.add(new ChatMessage(role == null ? "user" : role.toLowerCase(Locale.ROOT),
                    Bodies.contentText(m.get("content"), "messages[" + i + "].content")));
        }
        return out;
    }

    private static List<ChatMessage> v1Messages(JsonNode request) throws AdapterException {
        List<ChatMessage> out = new ArrayList<>();
        String preamble = Bodies.text(request, "preamble");
        if (preamble != null && !preamble.isBlank()) {
            out.add(new ChatMessage("system", preamble));
        }
        JsonNode history = Bodies.array(request, "chat_history");
        if (history != null) {
            for (JsonNode turn : history) {
                String role = turn.path("role").asText("USER").toUpperCase(Locale.ROOT);
                String text = turn.path("message").asText("");
                out.add(new ChatMessage(switch (role) {
                    case "CHATBOT" -> "assistant";
                    case "SYSTEM" -> "system";
                    default -> "user";
                }, text));
            }
        }
        out.add(new ChatMessage("user", Bodies.requireText(request, "message")));
        return out;
    }

    /** The request's documents, written before the text of its last user message. */
    private static void withDocuments(List<ChatMessage> messages, JsonNode documents) {
        if (documents == null || documents.isEmpty()) {
            return;
        }
        StringBuilder sb = new StringBuilder();
        for (JsonNode document : documents) {
            JsonNode data = document.has("data") ? document.get("data") : document;
            String text = data.isTextual() ? data.textValue() : documentText(data);
            if (text == null || text.isBlank()) {
                continue;
            }
            sb.append(sb.length() > 0 ? "\n" : "").append(GroundingDocuments.element(data.path("title").asText(""),
                    text.strip()));
        }
        GroundingDocuments.intoLastUserMessage(messages, sb.toString());
    }

    private static String documentText(JsonNode data) {
        for (String field : TEXT_FIELDS) {
            if (data.path(field).isTextual()) {
                return data.get(field).textValue();
            }
        }
        return null;
    }

    /** v2's server-sent events: the text of {@code content-delta}, the usage of {@code message-end}. */
    private CallDetail fromEvents(List<ChatMessage> messages, String model, JsonNode reply)
            throws AdapterException {
        StringBuilder output = new StringBuilder();
        TokenUsage[] usage = {TokenUsage.UNKNOWN};
        Sse.readChunks(reply, (chunk, event) -> {
            JsonNode node = Json.MAPPER.readTree(chunk);
            String type = node.path("type").asText(event == null ? "" : event);
            if ("content-delta".equals(type)) {
                JsonNode text = node.path("delta").path("message").path("content").path("text");
                if (text.isTextual()) {
                    output.append(text.textValue());
                }
            } else if ("message-end".equals(type)) {
                usage[0] = usage(node.path("delta").get("usage"));
            }
        });
        return ChatDetails.of(name(), model, messages, output.toString(), usage[0], true);
    }

    /** v1's newline-delimited events: the text of {@code text-generation}, the usage of {@code stream-end}. */
    private CallDetail fromLines(List<ChatMessage> messages, String model, Iterable<JsonNode> lines)
            throws AdapterException {
        StringBuilder output = new StringBuilder();
        TokenUsage usage = TokenUsage.UNKNOWN;
        for (JsonNode line : lines) {
            String type = line.path("event_type").asText("");
            if ("text-generation".equals(type) && line.path("text").isTextual()) {
                output.append(line.get("text").textValue());
            } else if ("stream-end".equals(type)) {
                usage = usage(line.path("response").get("meta"));
            }
        }
        return ChatDetails.of(name(), model, messages, output.toString(), usage, true);
    }

    /** The tokens the model read and wrote ({@code tokens}), else those billed ({@code billed_units}). */
    private static TokenUsage usage(JsonNode usage) throws AdapterException {
        if (usage == null || !usage.isObject()) {
            return TokenUsage.UNKNOWN;
        }
        JsonNode counts = usage.has("tokens") ? usage.get("tokens") : usage.get("billed_units");
        return counts == null ? TokenUsage.UNKNOWN : Usage.of(counts, "input_tokens", "output_tokens");
    }
}
