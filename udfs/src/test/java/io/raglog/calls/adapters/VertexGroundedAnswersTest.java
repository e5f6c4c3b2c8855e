package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.post;
import static io.raglog.calls.Calls.postWithTextReply;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ChatDetail;
import io.raglog.calls.ChatRole;
import io.raglog.schemas.Stage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Google's retrieval inside an answering call: Vertex AI Search's {@code :answer}, and Gemini grounded on a RAG Engine
 * corpus or a Vertex AI Search data store, whose passages no message holds.
 */
class VertexGroundedAnswersTest {

    private static final String ANSWER = "https://discoveryengine.googleapis.com/v1/projects/acme/locations/global/"
            + "collections/default_collection/engines/acme-app/servingConfigs/default_search:answer";
    private static final String GEMINI = "https://us-central1-aiplatform.googleapis.com/v1/projects/acme/locations/"
            + "us-central1/publishers/google/models/gemini-2.0-flash-001";
    private static final String CASH = "Cash flow was $4.2 billion in 2023.";
    private static final String REVENUE = "Revenue grew 12% in 2022.";
    private static final String QUESTION = "What was Acme cash flow in 2023?";
    private static final String GROUNDED_ON_A_CORPUS = "{'contents':[{'role':'user','parts':[{'text':'" + QUESTION
            + "'}]}],'tools':[{'retrieval':{'vertex_rag_store':{'rag_resources':[{'rag_corpus':"
            + "'projects/acme/locations/us-central1/ragCorpora/123'}]}}}]}";

    @Test
    void shouldReadAnAnswerAsAGeneratorAnsweringFromTheDocumentsItsReferencesName() {
        ChatDetail d = (ChatDetail) classified(post(ANSWER, "{'query':{'text':'" + QUESTION + "'},"
                + "'answerGenerationSpec':{'modelSpec':{'modelVersion':'stable'}}}", 200, "{'answer':{'state':"
                + "'SUCCEEDED','answerText':'Acme reported $4.2 billion.','references':[{'chunkInfo':{'content':'"
                + CASH + "','documentMetadata':{'title':'10-K'}}},{'unstructuredDocumentInfo':{'title':'10-Q',"
                + "'chunkContents':[{'content':'" + REVENUE + "'},{'content':'" + CASH + "'}]}},"
                + "{'structuredDocumentInfo':{'structData':{'text':'Capex was $1.1 billion.'}}}]}}")).detail();

        assertThat(d.adapter()).isEqualTo("vertex.answer");
        assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
        assertThat(d.model()).isEqualTo("stable");
        assertThat(d.question()).isEqualTo(QUESTION);
        assertThat(d.contextPassages()).containsExactly(CASH, REVENUE, "Capex was $1.1 billion.");
        assertThat(d.output()).isEqualTo("Acme reported $4.2 billion.");
        assertThat(d.messages().get(0).content()).startsWith("<document title=\"10-K\">\n" + CASH);
    }

    @Test
    void shouldReadAFailedAnswerAsItsQuestionAlone() {
        ChatDetail d = (ChatDetail) classified(post(ANSWER, "{'query':{'text':'" + QUESTION + "'}}", 503,
                "{'error':{'code':503,'status':'UNAVAILABLE'}}")).detail();

        assertThat(d.question()).isEqualTo(QUESTION);
        assertThat(d.output()).isNull();
        assertThat(d.model()).isNull();
    }

    @Test
    void shouldReadTheContextsAGroundedCallRetrievedAsThePassagesOfItsPrompt() {
        var call = classified(post(GEMINI + ":generateContent", GROUNDED_ON_A_CORPUS, 200, "{'candidates':[{"
                + "'content':{'role':'model','parts':[{'text':'Acme reported $4.2 billion.'}]},'groundingMetadata':{"
                + "'groundingChunks':[{'retrievedContext':{'uri':'gs://acme/10k.pdf','title':'10k.pdf','text':'"
                + CASH + "'}},{'retrievedContext':{'uri':'gs://acme/10k.pdf','title':'10k.pdf','ragChunk':{'text':'"
                + REVENUE + "'}}}],'groundingSupports':[{'segment':{'endIndex':27},'groundingChunkIndices':[0]}]}}]}"));

        assertThat(call.stage()).isEqualTo(Stage.GENERATE);
        ChatDetail d = (ChatDetail) call.detail();
        assertThat(d.question()).isEqualTo(QUESTION);
        assertThat(d.contextPassages()).containsExactly(CASH, REVENUE);
        assertThat(d.output()).isEqualTo("Acme reported $4.2 billion.");
    }

    @Test
    void shouldGatherAStreamsGroundingFromItsLastPiecesOnce() {
        String grounding = "\"groundingMetadata\":{\"groundingChunks\":[{\"retrievedContext\":{\"title\":\"10-K\","
                + "\"text\":\"" + CASH + "\"}}]}";
        String events = "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"Acme reported "
                + "\"}]}}]}\r\n\r\n"
                + "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"$4.2 billion.\"}]},"
                + grounding + "}]}\r\n\r\n"
                + "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"\"}]},"
                + "\"finishReason\":\"STOP\"," + grounding + "}]}\r\n\r\n";
        ChatDetail d = (ChatDetail) classified(postWithTextReply(GEMINI + ":streamGenerateContent?alt=sse",
                "{'contents':[{'role':'user','parts':[{'text':'" + QUESTION + "'}]}],'tools':[{'retrieval':"
                        + "{'vertexAiSearch':{'datastore':'projects/acme/locations/global/collections/"
                        + "default_collection/dataStores/acme-docs'}}}]}", 200, events)).detail();

        assertThat(d.streamed()).isTrue();
        assertThat(d.output()).isEqualTo("Acme reported $4.2 billion.");
        assertThat(d.contextPassages()).containsExactly(CASH);
    }

    @Test
    void shouldLeaveGroundingOnGoogleSearchAndUngroundedCallsAsTheirMessagesAlone() {
        String request = "{'contents':[{'role':'user','parts':[{'text':'" + QUESTION + "'}]}],"
                + "'tools':[{'googleSearch':{}}]}";
        ChatDetail web = (ChatDetail) classified(post(GEMINI + ":generateContent", request, 200, "{'candidates':[{"
                + "'content':{'role':'model','parts':[{'text':'Acme reported $4.2 billion.'}]},'groundingMetadata':{"
                + "'webSearchQueries':['acme cash flow 2023'],'groundingChunks':[{'web':{'uri':"
                + "'https://vertexaisearch.cloud.google.com/grounding-api-redirect/x','title':'acme.com'}}]}}]}"))
                .detail();
        ChatDetail plain = (ChatDetail) classified(post(GEMINI + ":generateContent", request, 200, "{'candidates':[{"
                + "'content':{'role':'model','parts':[{'text':'Acme reported $4.2 billion.'}]}}]}")).detail();

        for (ChatDetail d : List.of(web, plain)) {
            assertThat(d.messages()).hasSize(1);
            assertThat(d.messages().get(0).content()).isEqualTo(QUESTION);
            assertThat(d.contextPassages()).isEmpty();
        }
    }
}
