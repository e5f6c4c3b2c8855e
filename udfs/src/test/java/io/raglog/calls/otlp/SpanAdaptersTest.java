package io.raglog.calls.otlp;

import static io.raglog.calls.otlp.ClassifiedSpans.chat;
import static io.raglog.calls.otlp.ClassifiedSpans.classified;
import static io.raglog.calls.otlp.ClassifiedSpans.classifyAll;
import static io.raglog.calls.otlp.OtlpFixtures.GENAI_TRACE;
import static io.raglog.calls.otlp.OtlpFixtures.OPENINFERENCE_LLM_RERANK_TRACE;
import static io.raglog.calls.otlp.OtlpFixtures.OPENINFERENCE_TRACE;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.CallClassifier;
import io.raglog.calls.ChatDetail;
import io.raglog.calls.ChatMessage;
import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.EmbedDetail;
import io.raglog.calls.RerankDetail;
import io.raglog.calls.RerankDetail.RerankResult;
import io.raglog.calls.RetrieveDetail;
import io.raglog.calls.adapters.otlp.OtlpAdapters;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Stage;
import io.raglog.schemas.TokenUsage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Span calls through the classifier with the span adapters: the stage each span serves and what it says about the
 * run. Which of rewrite or generate a chat call is belongs to the shared ChatRoleRules, so chat calls are checked for
 * being a chat stage and for what the adapter hands to ChatDetails.of.
 */
class SpanAdaptersTest {

    private static final String QUESTION = "What was Acme's operating cash flow in 2023?";
    private static final String REWRITTEN = "Acme Corp net cash provided by operating activities fiscal year 2023";
    private static final String ANSWER = "Acme's net cash provided by operating activities was $1.42 billion"
            + " (1,421 million) in fiscal 2023, up from $1.18 billion in fiscal 2022.";
    private static final String REWRITE_PROMPT = "Rewrite the user's question as a standalone search query for the"
            + " knowledge base. Keep every name, number and date. Reply with the query only.";
    private static final List<String> PASSAGES = List.of(
            "Net cash provided by operating activities was $1.42 billion in fiscal 2023, compared with $1.18 billion"
                    + " in fiscal 2022, driven by higher net income and improved working capital.",
            "Net cash provided by operating activities was $1.18 billion in fiscal 2022, a decrease from $1.25"
                    + " billion in fiscal 2021.",
            "Consolidated Statements of Cash Flows (in millions): Net cash provided by operating activities 2023:"
                    + " 1,421; 2022: 1,183; 2021: 1,254.",
            "Free cash flow for the fourth quarter of 2023 was $312 million, up 9% year over year.",
            "Capital expenditures were $386 million in fiscal 2023, primarily for distribution centers and"
                    + " technology.");

    private static final String FAQ_QUESTION = "how do i reset my password if i lost access to my email?";
    private static final String FAQ_REWRITTEN = "reset account password without access to registered email";

    private static final List<Stage> CHAT_STAGES = List.of(Stage.REWRITE, Stage.GENERATE);

    private final CallClassifier classifier = new CallClassifier(OtlpAdapters.all());
    private final SpanFilter filter = SpanFilter.stagesOnly();

    // --- a LlamaIndex RAG trace instrumented with OpenInference ---

    @Test
    void shouldClassifyEachOpenInferenceStageSpan() {
        List<ClassifiedCall> calls = classifyAll(OPENINFERENCE_TRACE);

        assertThat(calls).extracting(c -> c.detail().adapter()).containsExactly("openinference.llm",
                "openinference.retriever", "openinference.embedding", "openinference.reranker", "openinference.llm");
        assertThat(calls.get(0).stage()).isIn(CHAT_STAGES);
        assertThat(calls.get(1).stage()).isEqualTo(Stage.RETRIEVE);
        assertThat(calls.get(2).stage()).isEqualTo(Stage.EMBED);
        assertThat(calls.get(3).stage()).isEqualTo(Stage.RERANK);
        assertThat(calls.get(4).stage()).isIn(CHAT_STAGES);
    }

    @Test
    void shouldReadTheChatCallInsideAnLlmRerankersSpanAsARerankNotAsTheGenerator() {
        List<ClassifiedCall> calls = classifyAll(OPENINFERENCE_LLM_RERANK_TRACE);

        // the rewrite, the retrieval, its embedding, LLMRerank's span, the chat call inside it, the answer
        assertThat(calls).extracting(c -> c.detail().adapter()).containsExactly("openinference.llm",
                "openinference.retriever", "openinference.embedding", "openinference.reranker",
                "openinference.llm.llm_rerank", "openinference.llm");
        assertThat(calls.get(4).stage()).isEqualTo(Stage.RERANK);
        assertThat(calls.get(5).stage()).isEqualTo(Stage.GENERATE);
        RerankDetail span = (RerankDetail) calls.get(3).detail();
        RerankDetail chat = (RerankDetail) calls.get(4).detail();
        // the documents as the span names them, without the metadata lines LlamaIndex writes above each in the prompt
        assertThat(chat.documents()).containsExactlyElementsOf(span.documents());
        assertThat(chat.query()).isEqualTo(span.query());
        assertThat(chat.results()).containsExactly(new RerankResult(2, 9.0), new RerankResult(0, 8.0),
                new RerankResult(1, 6.0));
        assertThat(chat.results()).extracting(RerankResult::index)
                .containsExactlyElementsOf(span.results().stream().map(RerankResult::index).toList());
    }

    @Test
    void shouldReadTheRewriteCallOfAnOpenInferenceTrace() {
        ChatDetail rewrite = (ChatDetail) classifyAll(OPENINFERENCE_TRACE).get(0).detail();

        assertThat(rewrite.model()).isEqualTo("gpt-4o-mini-2024-07-18");
        assertThat(rewrite.messages()).containsExactly(new ChatMessage("system", REWRITE_PROMPT),
                new ChatMessage("user", QUESTION));
        assertThat(rewrite.question()).isEqualTo(QUESTION);
        assertThat(rewrite.output()).isEqualTo(REWRITTEN);
        assertThat(rewrite.usage()).isEqualTo(new TokenUsage(58, 13));
        assertThat(rewrite.streamed()).isFalse();
    }

    @Test
    void shouldReadTheRetrievedPassagesInRankOrder() {
        RetrieveDetail retrieval = (RetrieveDetail) classifyAll(OPENINFERENCE_TRACE).get(1).detail();

        assertThat(retrieval.queryText()).isEqualTo(REWRITTEN);
        assertThat(retrieval.passages()).containsExactly(
                new Passage("acme-10k-2023-p47-c2", PASSAGES.get(0), 0.8412, 1),
                new Passage("acme-10k-2022-p44-c1", PASSAGES.get(1), 0.8237, 2),
                new Passage("acme-10k-2023-p48-c0", PASSAGES.get(2), 0.8105, 3),
                new Passage("acme-q4-2023-pr-c3", PASSAGES.get(3), 0.7894, 4),
                new Passage("acme-10k-2023-p52-c4", PASSAGES.get(4), 0.7731, 5));
    }

    @Test
    void shouldReadTheEmbeddedTextAndItsVector() {
        EmbedDetail embedding = (EmbedDetail) classifyAll(OPENINFERENCE_TRACE).get(2).detail();

        assertThat(embedding.model()).isEqualTo("text-embedding-3-small");
        assertThat(embedding.texts()).containsExactly(REWRITTEN);
        assertThat(embedding.vectors()).hasSize(1);
        assertThat(embedding.vectors().get(0))
                .containsExactly(0.0123f, -0.0456f, 0.0789f, 0.0012f, -0.0334f, 0.0561f, -0.0078f, 0.0249f);
    }

    @Test
    void shouldMapTheRerankersOutputBackToItsInputIndexes() {
        RerankDetail rerank = (RerankDetail) classifyAll(OPENINFERENCE_TRACE).get(3).detail();

        assertThat(rerank.model()).isEqualTo("rerank-english-v3.0");
        assertThat(rerank.query()).isEqualTo(REWRITTEN);
        assertThat(rerank.topN()).isEqualTo(3);
        assertThat(rerank.documents()).isEqualTo(PASSAGES);
        assertThat(rerank.results()).containsExactly(new RerankResult(2, 0.9912), new RerankResult(0, 0.9846),
                new RerankResult(1, 0.3127));
    }

    @Test
    void shouldReadTheGeneratorCallWithItsContextAnswerAndUsage() {
        ChatDetail generator = (ChatDetail) classifyAll(OPENINFERENCE_TRACE).get(4).detail();

        assertThat(generator.messages()).extracting(ChatMessage::role).containsExactly("system", "user");
        // The user message was recorded as multi-part contents; its text part is the LlamaIndex QA prompt.
        assertThat(generator.messages().get(1).content())
                .startsWith("Context information is below.")
                .contains(PASSAGES.get(2), PASSAGES.get(0), PASSAGES.get(1))
                .doesNotContain(PASSAGES.get(3))
                .contains("Query: " + REWRITTEN);
        assertThat(generator.question()).contains(REWRITTEN);
        assertThat(generator.output()).isEqualTo(ANSWER);
        assertThat(generator.usage()).isEqualTo(new TokenUsage(431, 38));
        assertThat(generator.model()).isEqualTo("gpt-4o-mini-2024-07-18");
    }

    // --- a trace instrumented with the OTel GenAI semantic conventions ---

    @Test
    void shouldClassifyEachGenAiStageSpan() {
        List<ClassifiedCall> calls = classifyAll(GENAI_TRACE);

        assertThat(calls).extracting(c -> c.detail().adapter())
                .containsExactly("gen_ai.retrieval", "gen_ai.chat", "gen_ai.embeddings", "gen_ai.chat");
        assertThat(calls).extracting(ClassifiedCall::stage).satisfies(stages -> {
            assertThat(stages.get(0)).isEqualTo(Stage.RETRIEVE);
            assertThat(stages.get(1)).isIn(CHAT_STAGES);
            assertThat(stages.get(2)).isEqualTo(Stage.EMBED);
            assertThat(stages.get(3)).isIn(CHAT_STAGES);
        });
    }

    @Test
    void shouldReadAChatWhoseMessagesAreSpanEvents() {
        ChatDetail rewrite = (ChatDetail) classifyAll(GENAI_TRACE).get(1).detail();

        assertThat(rewrite.messages()).containsExactly(
                new ChatMessage("system", "Rewrite the user's question as a short search query. Keep names, numbers"
                        + " and dates."),
                new ChatMessage("user", FAQ_QUESTION));
        assertThat(rewrite.question()).isEqualTo(FAQ_QUESTION);
        assertThat(rewrite.output()).isEqualTo(FAQ_REWRITTEN);
        assertThat(rewrite.usage()).isEqualTo(new TokenUsage(41, 11));
        assertThat(rewrite.model()).as("the model that answered").isEqualTo("gpt-4o-mini-2024-07-18");
    }

    @Test
    void shouldReadAChatWhoseMessagesAreJsonAttributes() {
        ChatDetail generator = (ChatDetail) classifyAll(GENAI_TRACE).get(3).detail();

        assertThat(generator.messages()).extracting(ChatMessage::role).containsExactly("system", "user");
        assertThat(generator.messages().get(0).content()).startsWith("You are the Acme help-center assistant.");
        assertThat(generator.messages().get(1).content()).startsWith("FAQ excerpts:\n[1] If you no longer have access")
                .endsWith("Question: " + FAQ_QUESTION);
        assertThat(generator.question()).contains(FAQ_QUESTION);
        assertThat(generator.output()).isEqualTo("Use Account recovery: sign in with your phone number, verify the"
                + " SMS code, and then set a new email address and password.");
        assertThat(generator.usage()).isEqualTo(new TokenUsage(212, 27));
    }

    @Test
    void shouldReadAGenAiRetrievalSpan() {
        RetrieveDetail retrieval = (RetrieveDetail) classifyAll(GENAI_TRACE).get(0).detail();

        assertThat(retrieval.store()).isEqualTo("qdrant");
        assertThat(retrieval.collection()).isEqualTo("faq-kb");
        assertThat(retrieval.queryText()).isEqualTo(FAQ_REWRITTEN);
        assertThat(retrieval.topK()).isEqualTo(4);
        assertThat(retrieval.passages()).extracting(Passage::id).containsExactly("faq-118", "faq-042", "faq-203",
                "faq-077");
        assertThat(retrieval.passages()).extracting(Passage::rank).containsExactly(1, 2, 3, 4);
        assertThat(retrieval.passages().get(0).score()).isEqualTo(0.8871);
        assertThat(retrieval.passages().get(0).text()).startsWith("If you no longer have access to the email");
    }

    @Test
    void shouldReadAGenAiEmbeddingsSpanThatRecordsNoInputs() {
        EmbedDetail embedding = (EmbedDetail) classifyAll(GENAI_TRACE).get(2).detail();

        assertThat(embedding.model()).isEqualTo("text-embedding-3-small");
        assertThat(embedding.texts()).as("the conventions record no embedding inputs").isEmpty();
        assertThat(embedding.vectors()).isEmpty();
        assertThat(embedding.usage()).isEqualTo(new TokenUsage(9, null));
    }

    // --- older and other shapes of the same conventions ---

    @Test
    void shouldTreatAnIndexBuildingEmbeddingSpanAsNotPartOfARun() {
        StringBuilder attributes = new StringBuilder("{\"openinference.span.kind\": \"EMBEDDING\", "
                + "\"embedding.model_name\": \"text-embedding-3-small\"");
        for (int i = 0; i < 32; i++) {
            attributes.append(", \"embedding.embeddings.").append(i).append(".embedding.text\": \"chunk ").append(i)
                    .append(" of a document being indexed\"");
        }
        ClassifiedCall call = classified(TestSpans.call(attributes.append('}').toString()));

        assertThat(call.stage()).isNull();
        assertThat(call.detail()).isInstanceOfSatisfying(io.raglog.calls.NotARunCall.class,
                n -> assertThat(n.reason()).contains("32 texts"));
    }

    @Test
    void shouldReadOpenLlmetrysIndexedPromptAndCompletionAttributes() {
        ChatDetail chat = chat(TestSpans.call("""
                {"llm.request.type": "chat", "gen_ai.system": "OpenAI", "gen_ai.request.model": "gpt-4o",
                 "gen_ai.prompt.0.role": "system", "gen_ai.prompt.0.content": "Answer from the context.",
                 "gen_ai.prompt.1.role": "user", "gen_ai.prompt.1.content": "When was the bridge opened?",
                 "gen_ai.completion.0.role": "assistant", "gen_ai.completion.0.content": "In 1932.",
                 "gen_ai.usage.prompt_tokens": 20, "gen_ai.usage.completion_tokens": 5}"""));

        assertThat(chat.adapter()).isEqualTo("gen_ai.chat");
        assertThat(chat.model()).isEqualTo("gpt-4o");
        assertThat(chat.messages()).containsExactly(new ChatMessage("system", "Answer from the context."),
                new ChatMessage("user", "When was the bridge opened?"));
        assertThat(chat.output()).isEqualTo("In 1932.");
        assertThat(chat.usage()).isEqualTo(new TokenUsage(20, 5));
    }

    @Test
    void shouldReadOpenLlmetrysCompletionPromptAndEmbeddingInputs() {
        ChatDetail completion = chat(TestSpans.call("""
                {"llm.request.type": "completion", "gen_ai.request.model": "davinci-002",
                 "gen_ai.prompt.0.user": "Tell me a joke about OpenTelemetry",
                 "gen_ai.completion.0.content": "It traced its steps."}"""));
        EmbedDetail embedding = (EmbedDetail) classified(TestSpans.call("""
                {"llm.request.type": "embedding", "gen_ai.request.model": "text-embedding-3-small",
                 "gen_ai.prompt.0.content": "cash flow 2023", "gen_ai.usage.prompt_tokens": 4}""")).detail();

        assertThat(completion.adapter()).isEqualTo("gen_ai.text_completion");
        assertThat(completion.messages()).containsExactly(new ChatMessage("user", "Tell me a joke about OpenTelemetry"));
        assertThat(completion.output()).isEqualTo("It traced its steps.");
        assertThat(embedding.texts()).containsExactly("cash flow 2023");
        assertThat(embedding.usage()).isEqualTo(new TokenUsage(4, null));
    }

    @Test
    void shouldReadMessagesRecordedAsStructuredAttributes() {
        ChatDetail chat = chat(TestSpans.call("""
                {"gen_ai.operation.name": "chat", "gen_ai.request.model": "claude-sonnet-4",
                 "gen_ai.input.messages": [{"role": "user", "parts": [{"type": "text", "content": "Context: A.\\n"},
                                                                   {"type": "text", "content": "Question: B?"}]}],
                 "gen_ai.output.messages": [{"role": "assistant", "finish_reason": "stop",
                                             "parts": [{"type": "reasoning", "content": "thinking"},
                                                       {"type": "text", "content": "B is A."}]}]}"""));

        assertThat(chat.messages()).containsExactly(new ChatMessage("user", "Context: A.\n\nQuestion: B?"));
        assertThat(chat.output()).as("reasoning parts are not the answer").isEqualTo("B is A.");
    }

    @Test
    void shouldReadEventBodiesFlattenedIntoEventAttributes() {
        ChatDetail chat = chat(TestSpans.call("""
                {"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o-mini"}""", """
                [{"name": "gen_ai.user.message", "attributes": {"content": "Who wrote Dune?"}},
                 {"name": "gen_ai.choice", "attributes": {"index": 1, "finish_reason": "stop",
                    "message": "{\\"role\\": \\"assistant\\", \\"content\\": \\"Second choice.\\"}"}},
                 {"name": "gen_ai.choice", "attributes": {"index": 0, "finish_reason": "stop",
                    "message": "{\\"role\\": \\"assistant\\", \\"content\\": \\"Frank Herbert.\\"}"}}]"""));

        assertThat(chat.messages()).containsExactly(new ChatMessage("user", "Who wrote Dune?"));
        assertThat(chat.output()).as("choice 0, whatever the event order").isEqualTo("Frank Herbert.");
    }

    @Test
    void shouldReadTheOldestPromptAndCompletionEvents() {
        ChatDetail chat = chat(TestSpans.call("""
                {"gen_ai.operation.name": "text_completion", "gen_ai.request.model": "gpt-3.5-turbo-instruct"}""", """
                [{"name": "gen_ai.content.prompt",
                  "attributes": {"gen_ai.prompt": "[{\\"role\\": \\"user\\", \\"content\\": \\"Say hi\\"}]"}},
                 {"name": "gen_ai.content.completion",
                  "attributes": {"gen_ai.completion": "[{\\"role\\": \\"assistant\\", \\"content\\": \\"Hi!\\"}]"}}]"""));

        assertThat(chat.adapter()).isEqualTo("gen_ai.text_completion");
        assertThat(chat.messages()).containsExactly(new ChatMessage("user", "Say hi"));
        assertThat(chat.output()).isEqualTo("Hi!");
    }

    @Test
    void shouldReadTheInferenceDetailsEvent() {
        ChatDetail chat = chat(TestSpans.call("""
                {"gen_ai.operation.name": "generate_content", "gen_ai.request.model": "gemini-2.5-flash"}""", """
                [{"name": "gen_ai.client.inference.operation.details", "attributes": {
                   "gen_ai.input.messages": [{"role": "user", "parts": [{"type": "text", "content": "2+2?"}]}],
                   "gen_ai.output.messages": [{"role": "assistant", "parts": [{"type": "text", "content": "4"}]}]}}]"""));

        assertThat(chat.adapter()).isEqualTo("gen_ai.generate_content");
        assertThat(chat.messages()).containsExactly(new ChatMessage("user", "2+2?"));
        assertThat(chat.output()).isEqualTo("4");
    }

    @Test
    void shouldReadOpenInferenceCompletionPrompts() {
        ChatDetail chat = chat(TestSpans.call("""
                {"openinference.span.kind": "LLM", "llm.model_name": "davinci-002",
                 "llm.prompts.0.prompt.text": "Summarise: the cat sat.", "llm.choices.0.completion.text": "A cat sat.",
                 "llm.invocation_parameters": "{\\"stream\\": true}"}"""));

        assertThat(chat.messages()).containsExactly(new ChatMessage("user", "Summarise: the cat sat."));
        assertThat(chat.output()).isEqualTo("A cat sat.");
        assertThat(chat.streamed()).isTrue();
    }

    @Test
    void shouldReadAVectorStoreQueryTracedAsADatabaseSpan() {
        ClassifiedCall call = classified(TestSpans.call("""
                {"db.system": "qdrant", "db.operation": "search", "db.collection.name": "handbook",
                 "db.vector.query.top_k": 2}""", """
                [{"name": "db.query.embeddings", "attributes": {"db.query.embeddings.vector": "[0.25, -0.5, 0.125]"}},
                 {"name": "db.query.result", "attributes": {"db.query.result.id": "p-17", "db.query.result.score": 0.91,
                    "db.query.result.metadata": "{\\"text\\": \\"Leave requests go to your manager.\\"}"}},
                 {"name": "db.query.result", "attributes": {"db.query.result.id": "p-4", "db.query.result.score": 0.87,
                    "db.query.result.document": "Holidays are booked in the HR portal."}}]"""));

        RetrieveDetail retrieval = (RetrieveDetail) call.detail();
        assertThat(call.stage()).isEqualTo(Stage.RETRIEVE);
        assertThat(retrieval.adapter()).isEqualTo("vectordb.qdrant");
        assertThat(retrieval.store()).isEqualTo("qdrant");
        assertThat(retrieval.collection()).isEqualTo("handbook");
        assertThat(retrieval.topK()).isEqualTo(2);
        assertThat(retrieval.queryVector()).containsExactly(0.25f, -0.5f, 0.125f);
        assertThat(retrieval.passages()).containsExactly(
                new Passage("p-17", "Leave requests go to your manager.", 0.91, 1),
                new Passage("p-4", "Holidays are booked in the HR portal.", 0.87, 2));
    }

    @Test
    void shouldGivePassagesWithoutIdsAnIdDerivedFromTheirText() {
        String retriever = """
                {"openinference.span.kind": "RETRIEVER", "input.value": "q",
                 "retrieval.documents.0.document.content": "alpha", "retrieval.documents.1.document.content": "beta"}""";
        RetrieveDetail first = (RetrieveDetail) classified(TestSpans.call(retriever)).detail();
        RetrieveDetail again = (RetrieveDetail) classified(TestSpans.call(retriever)).detail();

        assertThat(first.passages()).extracting(Passage::id).allMatch(id -> id.startsWith("sha1:")).doesNotHaveDuplicates();
        assertThat(first.passages()).isEqualTo(again.passages());
    }

    @Test
    void shouldMapRerankOutputsByContentWhenDocumentsHaveNoIds() {
        RerankDetail rerank = (RerankDetail) classified(TestSpans.call("""
                {"openinference.span.kind": "RERANKER", "reranker.query": "q", "reranker.top_k": 2,
                 "reranker.input_documents.0.document.content": "same text",
                 "reranker.input_documents.1.document.content": "other text",
                 "reranker.input_documents.2.document.content": "same text",
                 "reranker.output_documents.0.document.content": "same text",
                 "reranker.output_documents.0.document.score": 0.9,
                 "reranker.output_documents.1.document.content": "same text"}""")).detail();

        // Duplicated passages map to distinct inputs; a missing score is NaN, never a made-up number.
        assertThat(rerank.results()).extracting(RerankResult::index).containsExactly(0, 2);
        assertThat(rerank.results().get(0).score()).isEqualTo(0.9);
        assertThat(rerank.results().get(1).score()).isNaN();
    }

    // --- spans that are not stages, and stage spans that cannot be read ---

    @Test
    void shouldLetOnlyStageSpansThroughTheFilter() {
        assertThat(filter.isStage(TestSpans.call("{\"openinference.span.kind\": \"CHAIN\"}"))).isFalse();
        assertThat(filter.isStage(TestSpans.call("{\"openinference.span.kind\": \"TOOL\"}"))).isFalse();
        assertThat(filter.isStage(TestSpans.call("{\"openinference.span.kind\": \"AGENT\"}"))).isFalse();
        assertThat(filter.isStage(TestSpans.call("{\"gen_ai.operation.name\": \"execute_tool\"}"))).isFalse();
        assertThat(filter.isStage(TestSpans.call("{\"gen_ai.operation.name\": \"invoke_agent\"}"))).isFalse();
        assertThat(filter.isStage(TestSpans.call("{\"http.request.method\": \"POST\", \"http.route\": \"/ask\"}")))
                .isFalse();
        assertThat(filter.isStage(TestSpans.call("{\"db.system\": \"qdrant\", \"db.operation\": \"upsert\"}")))
                .isFalse();
        assertThat(filter.isStage(TestSpans.call("{\"db.system\": \"postgresql\", \"db.operation.name\": \"SELECT\"}")))
                .isFalse();

        assertThat(filter.isStage(TestSpans.call("{\"openinference.span.kind\": \"llm\"}"))).isTrue();
        assertThat(filter.isStage(TestSpans.call("{\"gen_ai.operation.name\": \"embeddings\"}"))).isTrue();
        assertThat(filter.isStage(TestSpans.call("{\"llm.request.type\": \"embedding\"}"))).isTrue();
    }

    @Test
    void shouldExplainAStageSpanThatRecordsNoContent() {
        Classification hidden = classifier.classify(TestSpans.call("""
                {"openinference.span.kind": "LLM", "llm.model_name": "gpt-4o", "llm.token_count.prompt": 812}"""));
        Classification optedOut = classifier.classify(TestSpans.call("""
                {"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o", "gen_ai.usage.input_tokens": 812}"""));

        assertThat(hidden).isInstanceOf(Classification.Unreadable.class);
        assertThat(((Classification.Unreadable) hidden).reason())
                .startsWith("openinference: LLM span records no input messages");
        assertThat(optedOut).isInstanceOf(Classification.Unreadable.class);
        assertThat(((Classification.Unreadable) optedOut).reason())
                .contains("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT");
    }

    @Test
    void shouldStillClassifyAFailedStageCallThatProducedNothing() {
        CallEvent failed = TestSpans.failedCall("""
                {"gen_ai.operation.name": "chat", "gen_ai.request.model": "gpt-4o", "error.type": "429"}""");

        ClassifiedCall call = classified(failed);

        // Classified, not dead-lettered: the run records the failed call; which stage it was is the role rules' call.
        assertThat(call.event().failed()).isTrue();
        assertThat(call.detail()).isInstanceOf(ChatDetail.class);
        assertThat(((ChatDetail) call.detail()).output()).isNull();
    }

    @Test
    void shouldRejectARerankOutputThatIsNoneOfItsInputs() {
        Classification result = classifier.classify(TestSpans.call("""
                {"openinference.span.kind": "RERANKER",
                 "reranker.input_documents.0.document.id": "a", "reranker.input_documents.0.document.content": "A",
                 "reranker.output_documents.0.document.id": "z", "reranker.output_documents.0.document.content": "Z"}"""));

        assertThat(result).isInstanceOf(Classification.Unreadable.class);
        assertThat(((Classification.Unreadable) result).reason())
                .isEqualTo("openinference: reranker.output_documents.0 (id z) matches no input document by id or content");
    }

    @Test
    void shouldRejectAMessageListThatIsBrokenJson() {
        Classification result = classifier.classify(TestSpans.call("""
                {"gen_ai.operation.name": "chat", "gen_ai.input.messages": "[{\\"role\\": \\"user\\", \\"parts\\": ["}"""));

        assertThat(result).isInstanceOf(Classification.Unreadable.class);
        assertThat(((Classification.Unreadable) result).reason())
                .startsWith("otel.gen_ai: attribute gen_ai.input.messages is not valid JSON");
    }
}
