package io.raglog.calls.otlp;

import static io.raglog.calls.otlp.ClassifiedSpans.chat;
import static io.raglog.calls.otlp.ClassifiedSpans.classified;
import static io.raglog.calls.otlp.ClassifiedSpans.classifyAll;
import static io.raglog.calls.otlp.ClassifiedSpans.unreadableReason;
import static io.raglog.calls.otlp.OtlpFixtures.LANGFUSE_TRACE;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ChatDetail;
import io.raglog.calls.ChatMessage;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.EmbedDetail;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.RetrieveDetail;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Stage;
import io.raglog.schemas.TokenUsage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Langfuse's spans (Python SDK v3, JS SDK v4) through the classifier with the span adapters: a LangChain RAG run as
 * Langfuse's callback handler traces it, and the shapes of the observation types one at a time. Which of rewrite or
 * generate a generation is belongs to the shared ChatRoleRules, checked here only for the fixture's plain RAG prompt.
 */
class LangfuseSpanAdapterTest {

    private static final String QUESTION = "What was Acme's operating cash flow in 2023?";
    private static final String ANSWER = "Acme's net cash provided by operating activities was $1.42 billion"
            + " (1,421 million) in fiscal 2023, up from $1.18 billion in fiscal 2022.";
    private static final List<String> RETRIEVED_IDS = List.of("acme-10k-2023-p47-c2", "acme-10k-2022-p44-c1",
            "acme-10k-2023-p48-c0", "acme-q4-2023-pr-c3");

    private final SpanFilter filter = SpanFilter.stagesOnly();

    // --- a LangChain RAG run traced by Langfuse's callback handler ---

    @Test
    void shouldKeepTheRetrieverAndTheGenerationAndDropTheGlue() {
        OtlpDecoding decoding = new OtlpJsonDecoder().decode(OtlpFixtures.json(LANGFUSE_TRACE));

        assertThat(decoding.failed()).as(decoding.error()).isFalse();
        assertThat(decoding.spans()).isEqualTo(8);
        // The chains (the sequence, its parallel step, format_docs, the prompt template, the parser) and the event.
        assertThat(decoding.droppedNotStage()).isEqualTo(6);
        assertThat(decoding.calls()).extracting(c -> c.request().url()).containsExactly(
                "otlp://acme-support-rag/VectorStoreRetriever", "otlp://acme-support-rag/ChatOpenAI");
    }

    @Test
    void shouldClassifyTheRetrieverAsRetrieveAndTheGenerationAsGenerate() {
        List<ClassifiedCall> calls = classifyAll(LANGFUSE_TRACE);

        assertThat(calls).extracting(c -> c.detail().adapter())
                .containsExactly("langfuse.retriever", "langfuse.generation");
        assertThat(calls).extracting(ClassifiedCall::stage).containsExactly(Stage.RETRIEVE, Stage.GENERATE);
    }

    @Test
    void shouldReadTheRetrieversQueryAndItsDocumentsInRankOrder() {
        RetrieveDetail retrieval = (RetrieveDetail) classifyAll(LANGFUSE_TRACE).get(0).detail();

        assertThat(retrieval.queryText()).as("the query, written as it is").isEqualTo(QUESTION);
        assertThat(retrieval.passages()).extracting(Passage::id).containsExactlyElementsOf(RETRIEVED_IDS);
        assertThat(retrieval.passages()).extracting(Passage::rank).containsExactly(1, 2, 3, 4);
        assertThat(retrieval.passages().get(0).text()).startsWith("Net cash provided by operating activities was"
                + " $1.42 billion in fiscal 2023");
        assertThat(retrieval.passages()).extracting(Passage::score).containsOnlyNulls();
        assertThat(retrieval.store()).isNull();
    }

    @Test
    void shouldReadTheGenerationsPromptAnswerModelAndUsage() {
        ChatDetail generation = (ChatDetail) classifyAll(LANGFUSE_TRACE).get(1).detail();

        assertThat(generation.messages()).extracting(ChatMessage::role).containsExactly("user");
        assertThat(generation.messages().get(0).content()).startsWith("Answer the question using only the context")
                .contains("Question: " + QUESTION);
        assertThat(generation.question()).contains(QUESTION);
        assertThat(generation.output()).isEqualTo(ANSWER);
        assertThat(generation.model()).isEqualTo("gpt-4o-mini-2024-07-18");
        // usage_details {input: 303, input_cache_read: 128, ...}: the cached tokens were part of the prompt.
        assertThat(generation.usage()).isEqualTo(new TokenUsage(431, 38));
        assertThat(generation.streamed()).isFalse();
    }

    // --- the shapes of each observation type ---

    @Test
    void shouldReadMessagesWithToolsTheOpenAiUsageAndAStream() {
        ChatDetail chat = chat(TestSpans.call("""
                {"langfuse.observation.type": "generation", "langfuse.observation.model.name": "gpt-4o",
                 "langfuse.observation.input": "{\\"messages\\": [{\\"role\\": \\"system\\", \\"content\\": \\"Be brief.\\"},\
                 {\\"role\\": \\"user\\", \\"content\\": [{\\"type\\": \\"text\\", \\"text\\": \\"Who wrote Dune?\\"}]}],\
                 \\"tools\\": [{\\"type\\": \\"function\\", \\"function\\": {\\"name\\": \\"search\\"}}]}",
                 "langfuse.observation.output": "{\\"role\\": \\"assistant\\", \\"content\\": \\"Frank Herbert.\\"}",
                 "langfuse.observation.usage_details": "{\\"prompt_tokens\\": 21, \\"completion_tokens\\": 4,\
                 \\"total_tokens\\": 25}",
                 "langfuse.observation.completion_start_time": "\\"2025-11-29T12:00:00.412Z\\""}"""));

        assertThat(chat.messages()).containsExactly(new ChatMessage("system", "Be brief."),
                new ChatMessage("user", "Who wrote Dune?"));
        assertThat(chat.output()).isEqualTo("Frank Herbert.");
        assertThat(chat.usage()).as("OpenAI's usage, passed through").isEqualTo(new TokenUsage(21, 4));
        assertThat(chat.streamed()).as("a first-token time is recorded for a stream only").isTrue();
    }

    @Test
    void shouldReadACompletionPromptAndAnAnswerThatIsItselfJson() {
        ChatDetail completion = chat(TestSpans.call("""
                {"langfuse.observation.type": "generation", "langfuse.observation.input": "Summarise: the cat sat.",
                 "langfuse.observation.output": "{\\"summary\\": \\"A cat sat.\\"}"}"""));

        assertThat(completion.messages()).containsExactly(new ChatMessage("user", "Summarise: the cat sat."));
        assertThat(completion.output()).isEqualTo("{\"summary\": \"A cat sat.\"}");
    }

    @Test
    void shouldReadLangChainJsDocumentsAQueryArgumentAndDocumentsWithoutIds() {
        RetrieveDetail retrieval = (RetrieveDetail) classified(TestSpans.call("""
                {"langfuse.observation.type": "retriever", "langfuse.observation.input": "{\\"query\\": \\"leave policy\\"}",
                 "langfuse.observation.output": "[{\\"pageContent\\": \\"Leave requests go to your manager.\\",\
                 \\"metadata\\": {\\"_id\\": \\"p-17\\", \\"relevance_score\\": 0.91}},\
                 {\\"pageContent\\": \\"Holidays are booked in the HR portal.\\", \\"metadata\\": {}}]"}""")).detail();

        assertThat(retrieval.queryText()).isEqualTo("leave policy");
        assertThat(retrieval.passages().get(0)).isEqualTo(new Passage("p-17", "Leave requests go to your manager.",
                0.91, 1));
        assertThat(retrieval.passages().get(1).id()).as("derived from the text").startsWith("sha1:");
    }

    @Test
    void shouldTakeAQueryThatMerelyStartsWithABracketAsWritten() {
        RetrieveDetail retrieval = (RetrieveDetail) classified(TestSpans.call("""
                {"langfuse.observation.type": "retriever", "langfuse.observation.input": "[urgent] reset my password",
                 "langfuse.observation.output": "[]"}""")).detail();

        assertThat(retrieval.queryText()).isEqualTo("[urgent] reset my password");
        assertThat(retrieval.passages()).isEmpty();
    }

    @Test
    void shouldReadAnEmbeddingsTextsVectorsModelAndUsage() {
        EmbedDetail embedding = (EmbedDetail) classified(TestSpans.call("""
                {"langfuse.observation.type": "embedding", "langfuse.observation.model.name": "text-embedding-3-small",
                 "langfuse.observation.input": "[\\"cash flow 2023\\"]",
                 "langfuse.observation.output": "[[0.25, -0.5, 0.125]]",
                 "langfuse.observation.usage_details": "{\\"input\\": 4, \\"total\\": 4}"}""")).detail();

        assertThat(embedding.adapter()).isEqualTo("langfuse.embedding");
        assertThat(embedding.model()).isEqualTo("text-embedding-3-small");
        assertThat(embedding.texts()).containsExactly("cash flow 2023");
        assertThat(embedding.vectors()).singleElement().satisfies(v -> assertThat(v).containsExactly(0.25f, -0.5f,
                0.125f));
        assertThat(embedding.usage()).isEqualTo(new TokenUsage(4, null));
    }

    @Test
    void shouldTreatAnIndexBuildingEmbeddingAsNotPartOfARun() {
        StringBuilder texts = new StringBuilder("[");
        for (int i = 0; i < 32; i++) {
            texts.append(i == 0 ? "" : ", ").append("\\\"chunk ").append(i).append(" of a document being indexed\\\"");
        }
        ClassifiedCall call = classified(TestSpans.call("{\"langfuse.observation.type\": \"embedding\","
                + " \"langfuse.observation.input\": \"" + texts + "]\"}"));

        assertThat(call.stage()).isNull();
        assertThat(call.detail()).isInstanceOfSatisfying(NotARunCall.class,
                n -> assertThat(n.reason()).contains("32 texts"));
    }

    // --- spans that are not stages, spans the conventions read, and stage spans that cannot be read ---

    @Test
    void shouldLeaveTheObservationsThatAreNoStageAlone() {
        for (String type : List.of("span", "event", "chain", "agent", "tool", "evaluator", "guardrail")) {
            assertThat(filter.isStage(TestSpans.call("{\"langfuse.observation.type\": \"" + type + "\"}")))
                    .as(type).isFalse();
        }
        assertThat(filter.isStage(TestSpans.call("{\"langfuse.observation.type\": \"retriever\"}"))).isTrue();
    }

    @Test
    void shouldLeaveASpanThatAlsoCarriesAConventionsKindToTheConvention() {
        CallEvent both = TestSpans.call("""
                {"openinference.span.kind": "LLM", "llm.model_name": "gpt-4o",
                 "llm.input_messages.0.message.role": "user", "llm.input_messages.0.message.content": "Hi",
                 "langfuse.observation.type": "generation", "langfuse.observation.input": "Something else"}""");
        CallEvent glueByConvention = TestSpans.call("""
                {"openinference.span.kind": "CHAIN", "langfuse.observation.type": "retriever"}""");

        assertThat(chat(both).adapter()).isEqualTo("openinference.llm");
        assertThat(filter.isStage(glueByConvention)).as("as it read before the Langfuse adapter").isFalse();
    }

    @Test
    void shouldExplainAGenerationWhoseInputIsBrokenJson() {
        String reason = unreadableReason(TestSpans.call("""
                {"langfuse.observation.type": "generation",
                 "langfuse.observation.input": "[{\\"role\\": \\"user\\", \\"content\\": \\"Wh"}"""));

        assertThat(reason).startsWith("langfuse: attribute langfuse.observation.input is not valid JSON");
    }

    @Test
    void shouldExplainARetrieverWhoseOutputIsNotAList() {
        String reason = unreadableReason(TestSpans.call("""
                {"langfuse.observation.type": "retriever", "langfuse.observation.input": "q",
                 "langfuse.observation.output": "no documents found"}"""));

        assertThat(reason).isEqualTo("langfuse: langfuse.observation.output is not a list of documents but string");
    }

    @Test
    void shouldExplainAGenerationThatRecordsNothingAndKeepOneWithGarbledUsage() {
        String empty = unreadableReason(TestSpans.call("""
                {"langfuse.observation.type": "generation", "langfuse.observation.model.name": "gpt-4o"}"""));
        ChatDetail garbledUsage = chat(TestSpans.call("""
                {"langfuse.observation.type": "generation", "langfuse.observation.input": "Hi",
                 "langfuse.observation.usage_details": "{\\"input\\": 3,"}"""));

        assertThat(empty)
                .isEqualTo("langfuse: generation records no input or output (not captured, or masked by the SDK)");
        assertThat(garbledUsage.usage()).isEqualTo(TokenUsage.UNKNOWN);
    }
}
