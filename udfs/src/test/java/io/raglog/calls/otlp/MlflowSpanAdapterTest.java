package io.raglog.calls.otlp;

import static io.raglog.calls.otlp.ClassifiedSpans.chat;
import static io.raglog.calls.otlp.ClassifiedSpans.classified;
import static io.raglog.calls.otlp.ClassifiedSpans.classifyAll;
import static io.raglog.calls.otlp.ClassifiedSpans.unreadableReason;
import static io.raglog.calls.otlp.OtlpFixtures.MLFLOW_TRACE;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ChatDetail;
import io.raglog.calls.ChatMessage;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.EmbedDetail;
import io.raglog.calls.RerankDetail;
import io.raglog.calls.RerankDetail.RerankResult;
import io.raglog.calls.RetrieveDetail;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Stage;
import io.raglog.schemas.TokenUsage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * MLflow Tracing's spans (3.x, exported over OTLP) through the classifier with the span adapters: a LangChain RAG run
 * as MLflow's autologging traces it, with an OpenAI embedding and a reranker the application traced itself, and the
 * other shapes MLflow records one at a time. Every MLflow attribute value is JSON-encoded, strings included.
 */
class MlflowSpanAdapterTest {

    private static final String QUESTION = "What was Acme's operating cash flow in 2023?";
    private static final String ANSWER = "Acme's net cash provided by operating activities was $1.42 billion"
            + " (1,421 million) in fiscal 2023, up from $1.18 billion in fiscal 2022.";
    private static final List<String> RETRIEVED_IDS = List.of("acme-10k-2023-p47-c2", "acme-10k-2022-p44-c1",
            "acme-10k-2023-p48-c0", "acme-q4-2023-pr-c3", "acme-10k-2023-p52-c4");

    private final SpanFilter filter = SpanFilter.stagesOnly();

    // --- a LangChain RAG run traced by MLflow's autologging ---

    @Test
    void shouldKeepTheStageSpansAndDropTheChainsAndTheParser() {
        OtlpDecoding decoding = new OtlpJsonDecoder().decode(OtlpFixtures.json(MLFLOW_TRACE));

        assertThat(decoding.failed()).as(decoding.error()).isFalse();
        assertThat(decoding.spans()).isEqualTo(10);
        assertThat(decoding.droppedNotStage()).as("five CHAIN spans and the PARSER").isEqualTo(6);
        assertThat(decoding.calls()).extracting(CallEvent::runHint).containsOnly("4f3e2d1c0b9a88776655443322110fed");
    }

    @Test
    void shouldClassifyEachStageSpan() {
        List<ClassifiedCall> calls = classifyAll(MLFLOW_TRACE);

        assertThat(calls).extracting(c -> c.detail().adapter()).containsExactly("mlflow.retriever",
                "mlflow.embedding", "mlflow.reranker", "mlflow.chat_model");
        assertThat(calls).extracting(ClassifiedCall::stage).containsExactly(Stage.RETRIEVE, Stage.EMBED,
                Stage.RERANK, Stage.GENERATE);
    }

    @Test
    void shouldReadTheRetrieversQueryAndPassagesNamedByTheirChunkIds() {
        RetrieveDetail retrieval = (RetrieveDetail) classifyAll(MLFLOW_TRACE).get(0).detail();

        assertThat(retrieval.queryText()).as("the JSON-encoded string, decoded").isEqualTo(QUESTION);
        assertThat(retrieval.passages()).extracting(Passage::id).containsExactlyElementsOf(RETRIEVED_IDS);
        assertThat(retrieval.passages()).extracting(Passage::rank).containsExactly(1, 2, 3, 4, 5);
        assertThat(retrieval.passages().get(4).text()).isEqualTo("Capital expenditures were $386 million in fiscal"
                + " 2023, primarily for distribution centers and technology.");
    }

    @Test
    void shouldReadTheEmbeddedQueryItsVectorModelAndUsage() {
        EmbedDetail embedding = (EmbedDetail) classifyAll(MLFLOW_TRACE).get(1).detail();

        assertThat(embedding.model()).isEqualTo("text-embedding-3-small");
        assertThat(embedding.texts()).containsExactly(QUESTION);
        assertThat(embedding.vectors()).singleElement().satisfies(v -> assertThat(v)
                .containsExactly(0.0123f, -0.0456f, 0.0789f, 0.0012f, -0.0334f, 0.0561f, -0.0078f, 0.0249f));
        assertThat(embedding.usage()).as("OpenAI's usage in the outputs").isEqualTo(new TokenUsage(11, null));
    }

    @Test
    void shouldMapTheRerankersOutputBackToItsInputs() {
        RerankDetail rerank = (RerankDetail) classifyAll(MLFLOW_TRACE).get(2).detail();

        assertThat(rerank.model()).isEqualTo("rerank-english-v3.0");
        assertThat(rerank.query()).isEqualTo(QUESTION);
        assertThat(rerank.topN()).isEqualTo(3);
        assertThat(rerank.documents()).hasSize(5).first().asString().startsWith("Net cash provided by operating");
        assertThat(rerank.results()).containsExactly(new RerankResult(2, 0.9912), new RerankResult(0, 0.9846),
                new RerankResult(1, 0.3127));
    }

    @Test
    void shouldReadTheChatModelsLangChainMessagesAnswerModelAndUsage() {
        ChatDetail generator = (ChatDetail) classifyAll(MLFLOW_TRACE).get(3).detail();

        assertThat(generator.messages()).extracting(ChatMessage::role).containsExactly("system", "user");
        assertThat(generator.messages().get(0).content()).startsWith("You answer questions about Acme's filings.")
                .contains("Consolidated Statements of Cash Flows").doesNotContain("Free cash flow");
        assertThat(generator.messages().get(1).content()).isEqualTo(QUESTION);
        assertThat(generator.question()).isEqualTo(QUESTION);
        assertThat(generator.output()).isEqualTo(ANSWER);
        assertThat(generator.model()).as("the model that answered").isEqualTo("gpt-4o-mini-2024-07-18");
        assertThat(generator.usage()).isEqualTo(new TokenUsage(431, 38));
        assertThat(generator.streamed()).isFalse();
    }

    // --- other shapes MLflow records ---

    @Test
    void shouldReadAnOpenAiAutologgedChatCompletion() {
        ChatDetail chat = chat(TestSpans.call("""
                {"mlflow.spanType": "\\"CHAT_MODEL\\"",
                 "mlflow.spanInputs": "{\\"messages\\": [{\\"role\\": \\"user\\", \\"content\\": \\"Who wrote Dune?\\"}],\
                 \\"model\\": \\"gpt-4o\\", \\"stream\\": true}",
                 "mlflow.spanOutputs": "{\\"model\\": \\"gpt-4o-2024-08-06\\", \\"choices\\": [{\\"index\\": 0,\
                 \\"message\\": {\\"role\\": \\"assistant\\", \\"content\\": \\"Frank Herbert.\\"}}],\
                 \\"usage\\": {\\"prompt_tokens\\": 12, \\"completion_tokens\\": 4, \\"total_tokens\\": 16}}"}"""));

        assertThat(chat.adapter()).isEqualTo("mlflow.chat_model");
        assertThat(chat.messages()).containsExactly(new ChatMessage("user", "Who wrote Dune?"));
        assertThat(chat.output()).isEqualTo("Frank Herbert.");
        assertThat(chat.model()).isEqualTo("gpt-4o-2024-08-06");
        assertThat(chat.usage()).isEqualTo(new TokenUsage(12, 4));
        assertThat(chat.streamed()).isTrue();
    }

    @Test
    void shouldReadLangChainsDumpedMessagesAndACompletionsPrompt() {
        ChatDetail chat = chat(TestSpans.call("""
                {"mlflow.spanType": "\\"LLM\\"",
                 "mlflow.spanInputs": "{\\"messages\\": [[{\\"lc\\": 1, \\"type\\": \\"constructor\\",\
                 \\"id\\": [\\"langchain\\", \\"schema\\", \\"messages\\", \\"HumanMessage\\"],\
                 \\"kwargs\\": {\\"content\\": \\"Say hi\\", \\"type\\": \\"human\\"}}]]}",
                 "mlflow.spanOutputs": "{\\"generations\\": [[{\\"text\\": \\"Hi!\\"}]]}"}"""));
        ChatDetail completion = chat(TestSpans.call("""
                {"mlflow.spanType": "\\"LLM\\"", "mlflow.spanInputs": "{\\"prompts\\": [\\"Summarise: the cat sat.\\"]}",
                 "mlflow.spanOutputs": "\\"A cat sat.\\""}"""));

        assertThat(chat.adapter()).isEqualTo("mlflow.llm");
        assertThat(chat.messages()).containsExactly(new ChatMessage("user", "Say hi"));
        assertThat(chat.output()).isEqualTo("Hi!");
        assertThat(completion.messages()).containsExactly(new ChatMessage("user", "Summarise: the cat sat."));
        assertThat(completion.output()).isEqualTo("A cat sat.");
    }

    @Test
    void shouldReadTheChatMessagesOfMlflow2WithTheAnswerAppended() {
        ChatDetail chat = chat(TestSpans.call("""
                {"mlflow.spanType": "\\"CHAT_MODEL\\"", "mlflow.spanInputs": "{\\"model\\": \\"gpt-4o\\"}",
                 "mlflow.chat.messages": "[{\\"role\\": \\"system\\", \\"content\\": \\"Be brief.\\"},\
                 {\\"role\\": \\"user\\", \\"content\\": \\"Who wrote Dune?\\"},\
                 {\\"role\\": \\"assistant\\", \\"content\\": \\"Frank Herbert.\\"}]"}"""));

        assertThat(chat.messages()).containsExactly(new ChatMessage("system", "Be brief."),
                new ChatMessage("user", "Who wrote Dune?"));
        assertThat(chat.output()).isEqualTo("Frank Herbert.");
        assertThat(chat.model()).isEqualTo("gpt-4o");
    }

    @Test
    void shouldReadALlamaIndexRetrievalWithScoresInTheMetadata() {
        RetrieveDetail retrieval = (RetrieveDetail) classified(TestSpans.call("""
                {"mlflow.spanType": "\\"RETRIEVER\\"",
                 "mlflow.spanInputs": "{\\"str_or_query_bundle\\": {\\"query_str\\": \\"leave policy\\"}}",
                 "mlflow.spanOutputs": "[{\\"page_content\\": \\"Leave requests go to your manager.\\",\
                 \\"metadata\\": {\\"score\\": 0.91, \\"file_name\\": \\"handbook.pdf\\"}, \\"id\\": \\"node-17\\"}]"}""")).detail();

        assertThat(retrieval.queryText()).isEqualTo("leave policy");
        assertThat(retrieval.passages()).containsExactly(
                new Passage("node-17", "Leave requests go to your manager.", 0.91, 1));
    }

    @Test
    void shouldReadAttributesSetWithoutMlflowsEncoding() {
        RetrieveDetail retrieval = (RetrieveDetail) classified(TestSpans.call("""
                {"mlflow.spanType": "RETRIEVER", "mlflow.spanInputs": "leave policy",
                 "mlflow.spanOutputs": [{"page_content": "Leave requests go to your manager."}]}""")).detail();

        assertThat(retrieval.queryText()).isEqualTo("leave policy");
        assertThat(retrieval.passages()).extracting(Passage::text).containsExactly("Leave requests go to your manager.");
    }

    // --- spans that are not stages, spans the conventions read, and stage spans that cannot be read ---

    @Test
    void shouldLeaveTheSpansThatAreNoStageAlone() {
        for (String type : List.of("CHAIN", "AGENT", "TOOL", "PARSER", "MEMORY", "UNKNOWN", "MY_STEP")) {
            assertThat(filter.isStage(TestSpans.call("{\"mlflow.spanType\": \"\\\"" + type + "\\\"\"}")))
                    .as(type).isFalse();
        }
        assertThat(filter.isStage(TestSpans.call("{\"mlflow.spanType\": \"\\\"RERANKER\\\"\"}"))).isTrue();
    }

    @Test
    void shouldLeaveASpanThatAlsoCarriesAConventionsKindToTheConvention() {
        CallEvent both = TestSpans.call("""
                {"gen_ai.operation.name": "embeddings", "gen_ai.request.model": "text-embedding-3-small",
                 "mlflow.spanType": "\\"RETRIEVER\\"", "mlflow.spanInputs": "\\"q\\""}""");
        CallEvent agentByConvention = TestSpans.call("""
                {"gen_ai.operation.name": "invoke_agent", "mlflow.spanType": "\\"CHAT_MODEL\\""}""");

        assertThat(classified(both).detail().adapter()).isEqualTo("gen_ai.embeddings");
        assertThat(filter.isStage(agentByConvention)).as("as it read before the MLflow adapter").isFalse();
    }

    @Test
    void shouldExplainInputsThatAreBrokenJson() {
        String reason = unreadableReason(TestSpans.call("""
                {"mlflow.spanType": "\\"CHAT_MODEL\\"", "mlflow.spanInputs": "[[{\\"content\\": \\"Wh"}"""));

        assertThat(reason).startsWith("mlflow: attribute mlflow.spanInputs is not valid JSON");
    }

    @Test
    void shouldExplainRetrieverOutputsThatAreNotAList() {
        String reason = unreadableReason(TestSpans.call("""
                {"mlflow.spanType": "\\"RETRIEVER\\"", "mlflow.spanInputs": "\\"q\\"",
                 "mlflow.spanOutputs": "{\\"documents\\": 3}"}"""));

        assertThat(reason).isEqualTo("mlflow: mlflow.spanOutputs is not a list of documents but object");
    }

    @Test
    void shouldExplainARerankOutputThatIsNoneOfItsInputs() {
        String reason = unreadableReason(TestSpans.call("""
                {"mlflow.spanType": "\\"RERANKER\\"",
                 "mlflow.spanInputs": "{\\"query\\": \\"q\\", \\"documents\\": [{\\"page_content\\": \\"A\\"}]}",
                 "mlflow.spanOutputs": "[{\\"page_content\\": \\"Z\\", \\"id\\": \\"z\\"}]"}"""));

        assertThat(reason).isEqualTo("mlflow: mlflow.spanOutputs[0] (id z) matches no input document by id or text");
    }

    @Test
    void shouldExplainAChatModelSpanThatRecordsNothing() {
        String reason = unreadableReason(TestSpans.call("""
                {"mlflow.spanType": "\\"CHAT_MODEL\\"", "mlflow.spanInputs": "{\\"model\\": \\"gpt-4o\\"}"}"""));

        assertThat(reason).isEqualTo("mlflow: CHAT_MODEL span records no"
                + " messages, prompt or completion in mlflow.spanInputs, mlflow.spanOutputs or mlflow.chat.messages");
    }
}
