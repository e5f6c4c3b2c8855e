package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.calls.ChatDetails;
import io.raglog.calls.ChatMessage;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.TokenUsage;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Google's Gemini {@code generateContent} and {@code streamGenerateContent}, as the Gemini API
 * ({@code /v1beta/models/gemini-2.0-flash:generateContent}) and Vertex AI
 * ({@code …/publishers/google/models/…:generateContent}) serve them, and as LangChain's and LlamaIndex's Google
 * integrations call them. The model is named in the path; the request's {@code contents} are turns of {@code parts}
 * (role {@code user} or {@code model}) and {@code systemInstruction} the system prompt. A reply is a
 * {@code candidates[0].content.parts} text with {@code usageMetadata}; streamed, a sequence of such replies, as
 * server-sent events ({@code alt=sse}) or as one JSON array, each carrying the next piece of text. Grounded on a
 * corpus (a {@code tools[].retrieval} of Vertex AI RAG Engine or Vertex AI Search), the call retrieves inside itself
 * and the reply names the passages the model read in its {@code groundingMetadata}: they are read into the prompt as
 * the generator's passages, as the Responses API's file-search results are.
 */
public final class GeminiGenerateAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "gemini.generate";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.isPost() && (e.pathEndsWith(":generateContent") || e.pathEndsWith(":streamGenerateContent"));
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        List<ChatMessage> messages = new ArrayList<>();
        JsonNode system = request.has("systemInstruction") ? request.get("systemInstruction")
                : request.get("system_instruction");
        if (system != null && system.isObject()) {
            String text = parts(system.get("parts"), "systemInstruction.parts", "\n");
            if (!text.isBlank()) {
                messages.add(new ChatMessage("system", text));
            }
        }
        JsonNode contents = Bodies.requireArray(request, "contents");
        for (int i = 0; i < contents.size(); i++) {
            JsonNode turn = contents.get(i);
            String role = "model".equals(turn.path("role").asText("user")) ? "assistant"
                    : Bodies.everyElement(turn.get("parts"), p -> p.has("functionResponse")) ? "tool" : "user";
            // an agent's earlier turn that called a function: what it asked of it, as its reply is read
            String calls = functionCallArguments(turn.get("parts"));
            messages.add(new ChatMessage(role, calls.isEmpty() ? parts(turn.get("parts"), "contents[" + i + "].parts",
                    "\n") : calls));
        }
        String model = Endpoint.of(call).modelBeforeMethod();
        boolean streamed = Endpoint.of(call).pathEndsWith(":streamGenerateContent");
        if (!Bodies.succeeded(call)) {
            return ChatDetails.of(name(), model, messages, null, TokenUsage.UNKNOWN, streamed);
        }
        JsonNode reply = Bodies.response(call);
        StringBuilder output = new StringBuilder();
        TokenUsage[] usage = {TokenUsage.UNKNOWN};
        String[] version = {null};
        GroundingDocuments.Gathered grounding = new GroundingDocuments.Gathered();
        String[] calls = {""};
        if (Sse.isStream(reply) || reply != null && reply.isArray()) {
            Sse.readChunks(reply, (chunk, event) -> {
                JsonNode piece = Json.MAPPER.readTree(chunk);
                readReply(piece, output, usage, version, grounding);
                calls[0] = functionCalls(piece, calls[0]);
            });
        } else if (reply != null && reply.isObject()) {
            readReply(reply, output, usage, version, grounding);
            calls[0] = functionCalls(reply, calls[0]);
        } else {
            throw new AdapterException("response body is " + Bodies.describe(reply) + ", expected candidates");
        }
        grounding.intoLastUserMessage(messages);
        return ChatDetails.of(name(), version[0] != null ? version[0] : model, messages,
                calls[0].isEmpty() ? output.toString() : calls[0], usage[0], streamed);
    }

    /** The arguments of a turn's {@code functionCall} parts, a line each ({@link ChatMessages#toolInputs}). */
    private static String functionCallArguments(JsonNode parts) {
        return ChatMessages.toolInputs(parts, part -> part.path("functionCall"), "args");
    }

    /**
     * {@code before} and the function calls of a reply's first candidate ({@link ChatMessages#toolInputs}), a line
     * each: a stream (a JSON array, or events with {@code alt=sse}) sends each call whole in one of its pieces, and
     * parallel calls may come in pieces of their own.
     */
    private static String functionCalls(JsonNode reply, String before) {
        String these = functionCallArguments(reply.path("candidates").path(0).path("content").path("parts"));
        return these.isEmpty() ? before : before.isEmpty() ? these : before + "\n" + these;
    }

    /**
     * One reply, or one piece of a stream: its first candidate's text appended and the passages it was grounded on
     * gathered, its usage and model kept.
     */
    private static void readReply(JsonNode reply, StringBuilder output, TokenUsage[] usage, String[] version,
            GroundingDocuments.Gathered grounding) throws AdapterException {
        JsonNode candidates = Bodies.array(reply, "candidates");
        if (candidates != null && candidates.size() > 0) {
            output.append(parts(candidates.get(0).path("content").get("parts"), "candidates[0].content.parts", ""));
            retrievedContexts(candidates.get(0).path("groundingMetadata"), grounding);
        }
        JsonNode metadata = reply.get("usageMetadata");
        if (metadata != null && metadata.isObject()) {
            usage[0] = Usage.of(metadata, "promptTokenCount", "candidatesTokenCount");
        }
        if (reply.path("modelVersion").isTextual()) {
            version[0] = reply.get("modelVersion").textValue();
        }
    }

    /**
     * The passages a retrieval tool handed the model inside the call, which no message holds: each
     * {@code groundingChunks[].retrievedContext} (its {@code text}, or its {@code ragChunk}'s), titled by its file or
     * document; a stream names them in its last pieces. All of them, not only those the {@code groundingSupports} tie
     * to a sentence of the answer: the model read them all, and which it leaned on is what raglog's checks judge.
     * Grounding on Google Search ({@code groundingChunks[].web}) is left out: those are web pages, not passages of the
     * pipeline's knowledge base, and the reply names only their titles and addresses.
     */
    private static void retrievedContexts(JsonNode groundingMetadata, GroundingDocuments.Gathered grounding) {
        for (JsonNode chunk : groundingMetadata.path("groundingChunks")) {
            JsonNode context = chunk.path("retrievedContext");
            String text = Bodies.label(context, "text");
            grounding.add(Bodies.label(context, "title"),
                    text != null ? text : Bodies.label(context.path("ragChunk"), "text"));
        }
    }

    /** The text parts of a turn, joined by {@code separator}; a thought, an image or a function call is not text. */
    private static String parts(JsonNode parts, String field, String separator) throws AdapterException {
        if (parts == null || parts.isNull() || parts.isMissingNode()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (JsonNode part : Bodies.asArray(parts, field)) {
            String text = part.path("text").isTextual() && !part.path("thought").asBoolean(false)
                    ? part.get("text").textValue() : functionResult(part.path("functionResponse"));
            if (text != null) {
                if (sb.length() > 0) {
                    sb.append(separator);
                }
                sb.append(text);
            }
        }
        return sb.toString();
    }

    /** A function's result (a retrieval tool's passages, in agentic RAG): its text field, else its JSON. */
    private static String functionResult(JsonNode functionResponse) {
        JsonNode response = functionResponse.path("response");
        if (!response.isObject()) {
            return null;
        }
        for (String field : List.of("result", "output", "content")) {
            if (response.path(field).isTextual()) {
                return response.get(field).textValue();
            }
        }
        return response.toString();
    }
}
