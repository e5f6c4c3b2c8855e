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
 * Vertex AI Search's managed RAG, {@code POST …/servingConfigs/{config}:answer} on Discovery Engine: one call
 * searches an app's data stores and answers. The question is {@code query.text}, the model
 * {@code answerGenerationSpec.modelSpec.modelVersion} when the request names one; the reply's
 * {@code answer.answerText} is the answer and its {@code answer.references} the passages it was answered from (a
 * chunk's {@code chunkInfo.content}, an unstructured document's {@code chunkContents}, a structured document's
 * {@code structData}), each titled by its document. Read as Bedrock's retrieveAndGenerate is
 * ({@link BedrockRetrieveAndGenerateAdapter}): the run's generator call, those passages written into its prompt
 * ({@link GroundingDocuments}), the run's retrieval rebuilt from them as the search inside the call is not seen.
 */
public final class VertexAnswerAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "vertex.answer";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.isPost() && e.pathEndsWith(":answer") && e.segmentAfter("servingConfigs") != null;
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        String question = Bodies.requireTextAt(request, "query.text", "the question");
        JsonNode modelSpec = Bodies.protoField(Bodies.protoField(request, "answer_generation_spec"), "model_spec");
        String model = Bodies.label(modelSpec, Bodies.protoName(modelSpec, "model_version"));
        List<ChatMessage> messages = new ArrayList<>(List.of(new ChatMessage("user", question)));
        if (!Bodies.succeeded(call)) {
            return ChatDetails.of(name(), model, messages, null, TokenUsage.UNKNOWN, false);
        }
        JsonNode answer = Bodies.responseJson(call).path("answer");
        GroundingDocuments.Gathered passages = new GroundingDocuments.Gathered();
        for (JsonNode reference : answer.path("references")) {
            JsonNode chunk = reference.path("chunkInfo");
            JsonNode unstructured = reference.path("unstructuredDocumentInfo");
            JsonNode structured = reference.path("structuredDocumentInfo");
            if (chunk.isObject()) {
                passages.add(Bodies.label(chunk.path("documentMetadata"), "title"), Bodies.label(chunk, "content"));
            } else if (unstructured.isObject()) {
                for (JsonNode content : unstructured.path("chunkContents")) {
                    passages.add(Bodies.label(unstructured, "title"), Bodies.label(content, "content"));
                }
            } else if (structured.isObject()) {
                passages.add(Bodies.label(structured, "title"), PassageText.find(structured.get("structData")));
            }
        }
        passages.intoLastUserMessage(messages);
        return ChatDetails.of(name(), model, messages, answer.path("answerText").asText(""), TokenUsage.UNKNOWN,
                false);
    }
}
