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
 * Amazon Bedrock's managed RAG, {@code POST /retrieveAndGenerate} (and {@code /retrieveAndGenerateStream}) on the
 * agent runtime: one call retrieves from a knowledge base and answers. The question is {@code input.text}; the reply's
 * {@code output.text} is the answer and its {@code citations[].retrievedReferences} the passages it was answered from.
 * Read as the run's generator call, those passages written into its prompt as {@code <document>} elements
 * ({@link GroundingDocuments}); the retrieval inside the call is not seen, so the run's retrieval is rebuilt from them,
 * as for any run whose retrieval call was not recorded. Streamed, the answer comes in {@code output} events and the
 * passages in {@code citation} events.
 */
public final class BedrockRetrieveAndGenerateAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "bedrock.retrieve-and-generate";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.isPost() && (e.pathEndsWith("/retrieveAndGenerate") || e.pathEndsWith("/retrieveAndGenerateStream"));
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        String question = Bodies.requireTextAt(request, "input.text", "the question");
        String arn = Bodies.label(request.path("retrieveAndGenerateConfiguration").path("knowledgeBaseConfiguration"),
                "modelArn");
        String model = Endpoint.bedrockModelOf(arn);
        boolean streamed = Endpoint.of(call).pathEndsWith("Stream");
        List<ChatMessage> messages = new ArrayList<>(List.of(new ChatMessage("user", question)));
        if (!Bodies.succeeded(call)) {
            return ChatDetails.of(name(), model, messages, null, TokenUsage.UNKNOWN, streamed);
        }
        JsonNode reply = Bodies.response(call);
        StringBuilder answer = new StringBuilder();
        GroundingDocuments.Gathered passages = new GroundingDocuments.Gathered();
        if (Sse.isStream(reply)) {
            Sse.readChunks(reply, (chunk, event) -> BedrockChunks.read(chunk, event, (name, payload) -> {
                if ("output".equals(name) && payload.path("text").isTextual()) {
                    answer.append(payload.get("text").textValue());
                } else if ("citation".equals(name)) {
                    references(payload, passages); // its references at the top, or in the older nested citation
                    references(payload.path("citation"), passages);
                }
            }));
        } else if (reply.isObject()) {
            answer.append(reply.path("output").path("text").asText(""));
            for (JsonNode citation : reply.path("citations")) {
                references(citation, passages);
            }
        } else {
            throw new AdapterException("response body is " + Bodies.describe(reply)
                    + ", expected output and citations");
        }
        passages.intoLastUserMessage(messages);
        return ChatDetails.of(name(), model, messages, answer.toString(), TokenUsage.UNKNOWN, streamed);
    }

    private static void references(JsonNode citation, GroundingDocuments.Gathered passages) {
        for (JsonNode reference : citation.path("retrievedReferences")) {
            passages.add(null, Bodies.label(reference.path("content"), "text"));
        }
    }
}
