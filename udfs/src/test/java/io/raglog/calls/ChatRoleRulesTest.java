package io.raglog.calls;

import static io.raglog.calls.Prompts.CAPEX;
import static io.raglog.calls.Prompts.CASH_FLOW;
import static io.raglog.calls.Prompts.DIVIDEND;
import static io.raglog.calls.Prompts.QUESTION;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The rewriter / generator / other decision and the question it reads, on the prompts RAG frameworks really send
 * (templates copied from LangChain, LlamaIndex and common hand-written ones, filled with realistic values).
 */
class ChatRoleRulesTest {

    private static ChatDetail read(List<ChatMessage> messages, String output) {
        return ChatDetails.of("test", "gpt-4o-mini", messages, output, null, false);
    }

    @Nested
    class Generators {

        @Test
        void shouldReadLangChainStuffPromptAsGeneratorWithItsQuestionAndPassages() {
            ChatDetail d = read(Prompts.user("Use the following pieces of context to answer the question at the end. "
                    + "If you don't know the answer, just say that you don't know, don't try to make up an answer.\n\n"
                    + Prompts.stuffedContext() + "\n\nQuestion: " + QUESTION + "\nHelpful Answer:"),
                    "Acme's operating cash flow was $4.2 billion in 2023.");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.question()).isEqualTo(QUESTION);
            assertThat(d.contextPassages()).containsExactly(CASH_FLOW, CAPEX, DIVIDEND);
        }

        @Test
        void shouldReadLangChainChatPromptWithContextInSystemAndQuestionInUser() {
            ChatDetail d = read(Prompts.of(
                    "system", "Use the following pieces of context to answer the user's question. \nIf you don't know "
                            + "the answer, just say that you don't know, don't try to make up an answer.\n"
                            + "----------------\n" + Prompts.stuffedContext(),
                    "user", QUESTION), "$4.2 billion.");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.question()).isEqualTo(QUESTION);
            assertThat(d.contextPassages()).containsExactly(CASH_FLOW, CAPEX, DIVIDEND);
        }

        @Test
        void shouldReadRlmRagPromptWhereTheQuestionComesBeforeTheContext() {
            ChatDetail d = read(Prompts.user("You are an assistant for question-answering tasks. Use the following "
                    + "pieces of retrieved context to answer the question. If you don't know the answer, just say that "
                    + "you don't know. Use three sentences maximum and keep the answer concise.\nQuestion: " + QUESTION
                    + " \nContext: " + Prompts.stuffedContext() + " \nAnswer:"), "It was $4.2 billion.");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.question()).isEqualTo(QUESTION);
            assertThat(d.contextText()).startsWith("Net cash provided").endsWith("December 2023.");
            assertThat(d.contextPassages()).hasSize(3);
        }

        @Test
        void shouldReadLlamaIndexTextQaPromptAndDropNodeMetadataFromPassages() {
            String contextStr = "page_label: 41\nfile_path: /data/acme_10k_2023.pdf\n\n" + CASH_FLOW
                    + "\n\npage_label: 43\nfile_path: /data/acme_10k_2023.pdf\n\n" + CAPEX;
            ChatDetail d = read(Prompts.of(
                    "system", "You are an expert Q&A system that is trusted around the world.\nAlways answer the query "
                            + "using the provided context information, and not prior knowledge.\nSome rules to follow:\n"
                            + "1. Never directly reference the given context in your answer.\n2. Avoid statements like "
                            + "'Based on the context, ...' or 'The context information ...' or anything along those lines.",
                    "user", "Context information is below.\n---------------------\n" + contextStr
                            + "\n---------------------\nGiven the context information and not prior knowledge, answer the "
                            + "query.\nQuery: " + QUESTION + "\nAnswer: "), "$4.2 billion");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.question()).isEqualTo(QUESTION);
            assertThat(d.contextText()).isEqualTo(contextStr);
            assertThat(d.contextPassages()).containsExactly(CASH_FLOW, CAPEX);
        }

        @Test
        void shouldReadLlamaIndexRefinePromptAsGenerator() {
            ChatDetail d = read(Prompts.user("The original query is as follows: " + QUESTION + "\nWe have provided an "
                    + "existing answer: Acme reported $4.2 billion.\nWe have the opportunity to refine the existing answer "
                    + "(only if needed) with some more context below.\n------------\n" + CAPEX + "\n------------\nGiven "
                    + "the new context, refine the original answer to better answer the query. If the context isn't "
                    + "useful, return the original answer.\nRefined Answer: "), "Acme reported $4.2 billion.");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.question()).isEqualTo(QUESTION);
            assertThat(d.contextPassages()).containsExactly(CAPEX);
        }

        @Test
        void shouldReadRetrievalChainSystemPromptWhoseContextFollowsAParagraph() {
            ChatDetail d = read(Prompts.of(
                    "system", "You are an assistant for question-answering tasks. Use the following pieces of retrieved "
                            + "context to answer the question. If you don't know the answer, say that you don't know. "
                            + "Use three sentences maximum and keep the answer concise.\n\n" + Prompts.stuffedContext(),
                    "user", QUESTION), "It was $4.2 billion.");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.question()).isEqualTo(QUESTION);
            assertThat(d.contextPassages()).containsExactly(CASH_FLOW, CAPEX, DIVIDEND);
        }

        @Test
        void shouldReadLcelPromptWhoseContextFollowsAColon() {
            ChatDetail d = read(Prompts.user("Answer the question based only on the following context:\n"
                    + Prompts.stuffedContext() + "\n\nQuestion: " + QUESTION + "\n"), "$4.2 billion");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.question()).isEqualTo(QUESTION);
            assertThat(d.contextPassages()).containsExactly(CASH_FLOW, CAPEX, DIVIDEND);
        }

        @Test
        void shouldReadCookbookContextQuestionTemplateWithSeparatorsBetweenPassages() {
            ChatDetail d = read(Prompts.user("Answer the question based on the context below, and if the question "
                    + "can't be answered based on the context, say \"I don't know\"\n\nContext: " + CASH_FLOW
                    + "\n\n###\n\n" + CAPEX + "\n\n---\n\nQuestion: " + QUESTION + "\nAnswer:"), "$4.2 billion");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.question()).isEqualTo(QUESTION);
            assertThat(d.contextPassages()).containsExactly(CASH_FLOW, CAPEX);
        }

        @Test
        void shouldReadXmlDocumentsAndTakeTheDocumentContent() {
            ChatDetail d = read(Prompts.user("Here are some documents for you to reference for your task:\n\n"
                    + "<documents>\n<document index=\"1\">\n<source>acme_10k_2023.pdf</source>\n<document_content>\n"
                    + CASH_FLOW + "\n</document_content>\n</document>\n<document index=\"2\">\n<source>acme_q4_2023.pdf"
                    + "</source>\n<document_content>\n" + DIVIDEND + "\n</document_content>\n</document>\n</documents>"
                    + "\n\nAnswer the user's question using only these documents.\n\n<question>" + QUESTION
                    + "</question>"), "$4.2 billion [1]");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.question()).isEqualTo(QUESTION);
            assertThat(d.contextPassages()).containsExactly(CASH_FLOW, DIVIDEND);
        }

        @Test
        void shouldReadNumberedSourcesInTheSystemMessage() {
            ChatDetail d = read(Prompts.of(
                    "system", "You are Acme's investor-relations assistant. Answer with the numbered passages only "
                            + "and cite them like [2].\n\n[1] " + CASH_FLOW + "\n[2] " + CAPEX + "\n[3] " + DIVIDEND,
                    "user", QUESTION), "Operating cash flow was $4.2 billion [1].");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.question()).isEqualTo(QUESTION);
            assertThat(d.contextPassages()).containsExactly(CASH_FLOW, CAPEX, DIVIDEND);
        }

        @Test
        void shouldReadTheOnePassageARerankerLeftWithoutItsNumber() {
            ChatDetail d = read(Prompts.user("Context:\n[1] " + CASH_FLOW + "\n\nQuestion: " + QUESTION),
                    "$4.2 billion [1].");
            ChatDetail marked = read(Prompts.user("Context:\n" + CASH_FLOW + " See [1] above.\n\nQuestion: "
                    + QUESTION), "$4.2 billion.");

            assertThat(d.contextPassages()).containsExactly(CASH_FLOW);
            assertThat(marked.contextPassages()).containsExactly(CASH_FLOW + " See [1] above.");
        }

        @Test
        void shouldReadDocumentNumberedPassagesFollowedByAnUnlabelledQuestion() {
            ChatDetail d = read(Prompts.user("Document 1: " + CASH_FLOW + "\nDocument 2: " + CAPEX
                    + "\n\nBased on the documents, " + QUESTION.substring(0, 1).toLowerCase() + QUESTION.substring(1)),
                    "$4.2 billion");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.contextPassages()).containsExactly(CASH_FLOW, CAPEX);
        }

        @Test
        void shouldReadQaWithSourcesPromptAndDropTheSourceLines() {
            ChatDetail d = read(Prompts.user("Given the following extracted parts of a long document and a question, "
                    + "create a final answer with references (\"SOURCES\"). If you don't know the answer, just say that "
                    + "you don't know. ALWAYS return a \"SOURCES\" part in your answer.\n\nQUESTION: " + QUESTION
                    + "\n=========\nContent: " + CASH_FLOW + "\nSource: 10k-p41\nContent: " + CAPEX
                    + "\nSource: 10k-p43\n=========\nFINAL ANSWER:"), "$4.2 billion.\nSOURCES: 10k-p41");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.question()).isEqualTo(QUESTION);
            assertThat(d.contextPassages()).containsExactly(CASH_FLOW, CAPEX);
        }

        @Test
        void shouldTakeToolResultsAfterTheQuestionAsContextInAnAgenticLoop() {
            ChatDetail d = read(Prompts.of(
                    "system", "You are a helpful assistant for Acme's investors.",
                    "user", QUESTION,
                    "assistant", "{\"query\": \"Acme operating cash flow 2023\"}",
                    "tool", CASH_FLOW + "\n\n" + CAPEX), "Acme generated $4.2 billion from operations in 2023.");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.question()).isEqualTo(QUESTION);
            assertThat(d.contextPassages()).containsExactly(CASH_FLOW, CAPEX);
        }

        @Test
        void shouldStayAGeneratorWhenTheQuestionAsksToRewriteSomething() {
            String question = "How do I rewrite a search query so that it uses the new index?";
            ChatDetail d = read(Prompts.user("Context:\nThe query planner rewrites queries that filter on an indexed "
                    + "column to use an index scan.\n\nQuestion: " + question + "\nAnswer:"),
                    "Filter on the indexed column and the planner will use the index.");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.question()).isEqualTo(question);
        }

        @Test
        void shouldStayAGeneratorWhenTheQuestionAsksToRephraseAPassage() {
            String question = "Can you rephrase the refund policy in plain words?";
            ChatDetail d = read(Prompts.of(
                    "system", "Answer the user's question using only the provided context.\n\nContext:\nRefunds are "
                            + "issued within 30 days of purchase when the item is returned unused.",
                    "user", question), "You can get your money back within 30 days if the item is unused.");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.question()).isEqualTo(question);
        }

        @Test
        void shouldCallAGeneratorWhoseRetrievalCameBackEmptyAGenerator() {
            ChatDetail d = read(Prompts.user("Use the following pieces of context to answer the question at the end. "
                    + "If you don't know the answer, just say that you don't know, don't try to make up an answer.\n\n"
                    + "\n\nQuestion: " + QUESTION + "\nHelpful Answer:"), "I don't know.");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.contextText()).isNull();
            assertThat(d.question()).isEqualTo(QUESTION);
        }

        @Test
        void shouldCallAGeneratorThatSaysItAnswersFromContextAGeneratorWhenItsContextCameBackEmpty() {
            // every passage compressed away (LangChain's LLMChainExtractor said NO_OUTPUT to each): an empty block
            ChatDetail d = read(Prompts.of("system", "You answer questions using only the context provided. If the "
                    + "context does not contain the answer, say so.", "user", "Context:\n\n\nQuestion: " + QUESTION),
                    "The context provided does not say.");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.question()).isEqualTo(QUESTION);
        }

        @Test
        void shouldKeepTheTemplatesQuestionWhenAPassageHoldsFaqQuestions() {
            String faq = "Question: When are dividends paid?\nAnswer: Dividends are paid in the month after declaration.";
            ChatDetail d = read(Prompts.user("Context:\n" + faq + "\n\n" + DIVIDEND + "\n\nQuestion: When was the "
                    + "last dividend declared?\nAnswer:"), "In December 2023.");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(d.question()).isEqualTo("When was the last dividend declared?");
            assertThat(d.contextText()).contains("When are dividends paid?").contains(DIVIDEND);
        }
    }

    @Nested
    class Rewriters {

        @Test
        void shouldReadLangChainMultiQueryPromptAsRewriterOfTheOriginalQuestion() {
            ChatDetail d = read(Prompts.user("You are an AI language model assistant. Your task is \n    to generate 3 "
                    + "different versions of the given user \n    question to retrieve relevant documents from a vector  "
                    + "database. \n    By generating multiple perspectives on the user question, \n    your goal is to "
                    + "help the user overcome some of the limitations \n    of distance-based similarity search. \n    "
                    + "Provide these alternative questions separated by newlines. \n    Original question: " + QUESTION),
                    "What operating cash flow did Acme Corp report for fiscal 2023?\nHow much cash did Acme generate "
                            + "from operations in 2023?\nAcme Corp 2023 cash flow from operating activities");

            assertThat(d.role()).isEqualTo(ChatRole.REWRITE);
            assertThat(d.question()).isEqualTo(QUESTION);
            assertThat(d.output()).contains("\n"); // the split into queries is assembly's
        }

        @Test
        void shouldReadRagFusionPromptAndStopTheQuestionAtTheOutputLabel() {
            ChatDetail d = read(Prompts.of(
                    "system", "You are a helpful assistant that generates multiple search queries based on a single "
                            + "input query.",
                    "user", "Generate multiple search queries related to: " + QUESTION + " \nOutput (4 queries):"),
                    "1. Acme Corp operating cash flow 2023\n2. Acme 10-K 2023 cash from operations\n3. Acme cash flow "
                            + "statement fiscal 2023\n4. Acme 2023 annual report liquidity");

            assertThat(d.role()).isEqualTo(ChatRole.REWRITE);
            assertThat(d.question()).isEqualTo(QUESTION);
        }

        @Test
        void shouldReadCondenseQuestionPromptAndTakeTheFollowUpInput() {
            ChatDetail d = read(Prompts.user("Given the following conversation and a follow up question, rephrase the "
                    + "follow up question to be a standalone question, in its original language.\n\nChat History:\n\n"
                    + "Human: " + QUESTION + "\nAssistant: It was $4.2 billion.\nFollow Up Input: And in 2022?\n"
                    + "Standalone question:"), "What was Acme Corp's operating cash flow in 2022?");

            assertThat(d.role()).isEqualTo(ChatRole.REWRITE);
            assertThat(d.question()).isEqualTo("And in 2022?");
        }

        @Test
        void shouldReadContextualizePromptWithChatHistoryAsRewriterDespiteTheWordContext() {
            ChatDetail d = read(Prompts.of(
                    "system", "Given a chat history and the latest user question which might reference context in the "
                            + "chat history, formulate a standalone question which can be understood without the chat "
                            + "history. Do NOT answer the question, just reformulate it if needed and otherwise return "
                            + "it as is.",
                    "user", QUESTION,
                    "assistant", "Acme's operating cash flow was $4.2 billion in 2023.",
                    "user", "How does that compare with 2022?"),
                    "How does Acme Corp's 2023 operating cash flow compare with its 2022 operating cash flow?");

            assertThat(d.role()).isEqualTo(ChatRole.REWRITE);
            assertThat(d.question()).isEqualTo("How does that compare with 2022?");
            assertThat(d.contextText()).isNull();
        }

        @Test
        void shouldReadRewriteRetrieveReadPromptWithItsInlineQuestion() {
            ChatDetail d = read(Prompts.user("Provide a better search query for web search engine to answer the given "
                    + "question, end the queries with ’**’. Question: " + QUESTION + " Answer:"),
                    "Acme Corp 2023 operating cash flow**");

            assertThat(d.role()).isEqualTo(ChatRole.REWRITE);
            assertThat(d.question()).isEqualTo(QUESTION);
        }

        @Test
        void shouldReadHydePromptAsRewriter() {
            ChatDetail d = read(Prompts.user("Please write a passage to answer the question\nQuestion: " + QUESTION
                    + "\nPassage:"), "In its 2023 annual report, Acme Corp disclosed net cash from operating activities "
                    + "of roughly $4 billion, reflecting strong earnings.");

            assertThat(d.role()).isEqualTo(ChatRole.REWRITE);
            assertThat(d.question()).isEqualTo(QUESTION);
        }

        @Test
        void shouldReadLlamaIndexHydePromptWhoseQueryIsUnlabelled() {
            ChatDetail d = read(Prompts.user("Please write a passage to answer the question\nTry to include as many key "
                    + "details as possible.\n\n\n" + QUESTION + "\n\n\nPassage:\"\"\"\n"),
                    "Acme Corp's cash flow statement for 2023 shows...");

            assertThat(d.role()).isEqualTo(ChatRole.REWRITE);
            assertThat(d.question()).isEqualTo(QUESTION);
        }

        @Test
        void shouldReadHydePromptsThatDescribeTheirHypotheticalDocumentAsRewriters() {
            // Haystack's HyDE template, and a system prompt that qualifies the passage it asks for
            ChatDetail haystack = read(Prompts.user("Given a question, generate a paragraph of text that answers the "
                    + "question.\nQuestion: " + QUESTION + "\nParagraph:"), "Acme Corp reported operating cash of...");
            assertThat(haystack.role()).isEqualTo(ChatRole.REWRITE);
            assertThat(haystack.question()).isEqualTo(QUESTION);

            ChatDetail qualified = read(Prompts.user("Write a short encyclopedic passage that would answer the user's "
                    + "question.\nQuestion: " + QUESTION), "Acme Corp's 2023 cash flow statement shows...");
            assertThat(qualified.role()).isEqualTo(ChatRole.REWRITE);
        }

        @Test
        void shouldReadLlamaIndexQueryFusionPrompt() {
            ChatDetail d = read(Prompts.user("You are a helpful assistant that generates multiple search queries based "
                    + "on a single input query. Generate 3 search queries, one on each line, related to the following "
                    + "input query:\nQuery: " + QUESTION + "\nQueries:\n"),
                    "Acme operating cash flow 2023\nAcme cash from operations fiscal 2023\nAcme 10-K liquidity 2023");

            assertThat(d.role()).isEqualTo(ChatRole.REWRITE);
            assertThat(d.question()).isEqualTo(QUESTION);
        }

        @Test
        void shouldReadStepBackPromptWithFewShotExamples() {
            ChatDetail d = read(Prompts.of(
                    "system", "You are an expert at world knowledge. Your task is to step back and paraphrase a question "
                            + "to a more generic step-back question, which is easier to answer. Here are a few examples:",
                    "user", "Could the members of The Police perform lawful arrests?",
                    "assistant", "what can the members of The Police do?",
                    "user", QUESTION), "What cash flows did Acme Corp report for 2023?");

            assertThat(d.role()).isEqualTo(ChatRole.REWRITE);
            assertThat(d.question()).isEqualTo(QUESTION);
        }

        @Test
        void shouldReadDecompositionPrompt() {
            ChatDetail d = read(Prompts.user("You are a helpful assistant that generates multiple sub-questions related "
                    + "to an input question. \nThe goal is to break down the input into a set of sub-problems / "
                    + "sub-questions that can be answers in isolation. \nGenerate multiple search queries related to: "
                    + "How did Acme's 2023 cash flow and capex compare? \nOutput (3 queries):"),
                    "1. Acme 2023 operating cash flow\n2. Acme 2023 capital expenditures\n3. Acme 2022 cash flow");

            assertThat(d.role()).isEqualTo(ChatRole.REWRITE);
            assertThat(d.question()).isEqualTo("How did Acme's 2023 cash flow and capex compare?");
        }

        @Test
        void shouldTakeShortQueryLinesForTheQuestionAsARewriteWithoutAnInstruction() {
            ChatDetail d = read(Prompts.of("system", "You help a search engine.", "user", QUESTION),
                    "Acme operating cash flow 2023\nAcme Corp cash flow statement 2023");

            assertThat(d.role()).isEqualTo(ChatRole.REWRITE);
            assertThat(d.question()).isEqualTo(QUESTION);
        }

        @Test
        void shouldReadARewriterShownDocumentsThatAsksOnlyForQueries() {
            ChatDetail d = read(Prompts.user("The documents below did not contain what the user needs.\n\nDocuments:\n"
                    + CAPEX + "\n\nWrite a better search query for the question.\nQuestion: " + QUESTION),
                    "Acme 2023 net cash provided by operating activities");

            assertThat(d.role()).isEqualTo(ChatRole.REWRITE);
            assertThat(d.question()).isEqualTo(QUESTION);
        }
    }

    @Nested
    class Others {

        @Test
        void shouldReadCragRelevanceGraderAsOtherEvenThoughItCarriesADocument() {
            ChatDetail d = read(Prompts.of(
                    "system", "You are a grader assessing relevance of a retrieved document to a user question. \n If "
                            + "the document contains keyword(s) or semantic meaning related to the user question, grade "
                            + "it as relevant. \n It does not need to be a stringent test. The goal is to filter out "
                            + "erroneous retrievals. \n Give a binary score 'yes' or 'no' score to indicate whether the "
                            + "document is relevant to the question.",
                    "user", "Retrieved document: \n\n " + CASH_FLOW + " \n\n User question: " + QUESTION),
                    "{\"binary_score\": \"yes\"}");

            assertThat(d.role()).isEqualTo(ChatRole.OTHER);
        }

        @Test
        void shouldKeepAMultipleChoiceGeneratorThatAnswersWithALetterAGenerator() {
            ChatDetail d = read(Prompts.of("system", "Read the context, evaluate the answer options and reply with the "
                    + "letter of the best one.\n\nContext:\n" + CASH_FLOW,
                    "user", QUESTION + "\nA) $3.1 billion\nB) $4.2 billion\nC) $1.1 billion"), "B");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
        }

        @Test
        void shouldKeepAGeneratorThatIsToldToAssessTheContextFirst() {
            ChatDetail d = read(Prompts.of(
                    "system", "Assess whether the context below answers the question; if it does not, say so.\n\n"
                            + "Context:\n" + CASH_FLOW,
                    "user", QUESTION),
                    "The context answers it: Acme's operating cash flow was $4.2 billion in fiscal 2023.");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
        }

        @Test
        void shouldReadLangChainsContextualCompressionCallsAsOtherWhateverTheyReply() {
            // LLMChainExtractor and LLMChainFilter, one call per retrieved document: the extracts (or the documents
            // kept) reach the generator's prompt, where context assembly reads them
            String extract = "Given the following question and context, extract any part of the context *AS IS* "
                    + "that is relevant to answer the question. If none of the context is relevant return NO_OUTPUT. "
                    + "\n\nRemember, *DO NOT* edit the extracted parts of the context.\n\n> Question: " + QUESTION
                    + "\n> Context:\n>>>\n" + CASH_FLOW + "\n>>>\nExtracted relevant parts:";
            String filter = "Given the following question and context, return YES if the context is relevant to the "
                    + "question and NO if it isn't.\n\n> Question: " + QUESTION + "\n> Context:\n>>>\n" + CASH_FLOW
                    + "\n>>>\n> Relevant (YES / NO):";

            assertThat(read(Prompts.user(extract), "Net cash provided by operating activities was $4.2 billion in "
                    + "fiscal 2023").role()).isEqualTo(ChatRole.OTHER);
            assertThat(read(Prompts.user(extract), "NO_OUTPUT").role()).isEqualTo(ChatRole.OTHER);
            assertThat(read(Prompts.user(filter), "YES").role()).isEqualTo(ChatRole.OTHER);
        }

        @Test
        void shouldReadLangChainsMapReduceMapStepsAsOtherAndItsCombiningCallAsTheGenerator() {
            // the map step, one call per document, returns what of it is relevant, verbatim; the combining call
            // answers from those extracts (a generator whose context they are)
            String map = "Use the following portion of a long document to see if any of the text is relevant to "
                    + "answer the question. \nReturn any relevant text verbatim.\n" + CASH_FLOW + "\nQuestion: "
                    + QUESTION + "\nRelevant text, if any:";
            String extract = "Net cash provided by operating activities was $4.2 billion in fiscal 2023";
            ChatDetail combine = read(Prompts.user("Given the following extracted parts of a long document and a "
                    + "question, create a final answer. \nIf you don't know the answer, just say that you don't know. "
                    + "Don't try to make up an answer.\n\nQUESTION: " + QUESTION + "\n=========\n" + extract
                    + "\n=========\nFINAL ANSWER:"), "$4.2 billion.");

            assertThat(read(Prompts.user(map), extract).role()).isEqualTo(ChatRole.OTHER);
            assertThat(combine.role()).isEqualTo(ChatRole.GENERATE);
            assertThat(combine.question()).isEqualTo(QUESTION);
            assertThat(combine.contextPassages()).containsExactly(extract);
        }

        @Test
        void shouldReadQuestionsSuggestedForTheUserToAskNextAsOtherNotAsARewrite() {
            ChatDetail followUps = read(Prompts.of("system", "Based on the conversation, suggest three short follow-up "
                    + "questions the user might ask next. Return them one per line.", "user", "Question: " + QUESTION
                    + "\nAnswer: Acme Corp's operating cash flow in 2023 was $4.2 billion."),
                    "What drove Acme's cash flow growth in 2023?\nHow does Acme's 2023 cash flow compare to 2022?");
            ChatDetail related = read(Prompts.user("Given the user's question and the answer below, generate 3 related "
                    + "questions the user may want to ask.\n\nQuestion: " + QUESTION + "\nAnswer: $4.2 billion."),
                    "1. What was Acme's free cash flow in 2023?\n2. How did Acme's operating cash flow change?");

            assertThat(followUps.role()).isEqualTo(ChatRole.OTHER);
            assertThat(related.role()).isEqualTo(ChatRole.OTHER);
        }

        @Test
        void shouldReadAQuestionRouterAsOther() {
            ChatDetail d = read(Prompts.of(
                    "system", "You are an expert at routing a user question to a vectorstore or web search.\nThe "
                            + "vectorstore contains documents related to agents, prompt engineering, and adversarial "
                            + "attacks.\nUse the vectorstore for questions on these topics. Otherwise, use web-search.",
                    "user", QUESTION), "{\"datasource\": \"web_search\"}");

            assertThat(d.role()).isEqualTo(ChatRole.OTHER);
        }

        @Test
        void shouldReadATitleGeneratorAsOther() {
            ChatDetail d = read(Prompts.of(
                    "system", "Generate a concise, 3-5 word title summarizing the chat history.",
                    "user", QUESTION), "Acme 2023 Cash Flow");

            assertThat(d.role()).isEqualTo(ChatRole.OTHER);
        }

        @Test
        void shouldReadPlainChatWithoutDocumentsAsOther() {
            ChatDetail d = read(Prompts.user("What's the capital of France?"), "Paris.");

            assertThat(d.role()).isEqualTo(ChatRole.OTHER);
            assertThat(d.question()).isEqualTo("What's the capital of France?");
        }

        @Test
        void shouldReadAGuardrailAsOther() {
            ChatDetail d = read(Prompts.user("Is the following user message safe to answer? Reply with yes or no.\n\n"
                    + "Message: " + QUESTION), "yes");

            assertThat(d.role()).isEqualTo(ChatRole.OTHER);
        }

        @Test
        void shouldNotTakeABulletedAnswerWithoutTheQuestionsWordsForQueries() {
            ChatDetail d = read(Prompts.user("What are good habits for sleeping better?"),
                    "- Keep a regular schedule.\n- Avoid screens an hour before bed.\n- Keep the room cool and dark.");

            assertThat(d.role()).isEqualTo(ChatRole.OTHER);
        }
    }

    /**
     * A pipeline's own relevance gate, asked before generating whether the retrieved context suffices: a "no" stopped
     * the run there, so the gate stands in the generator's place; a "yes" is not a stage (the generator follows).
     */
    @Nested
    class Gates {

        private static final String CHUNKS = CASH_FLOW + "\n\n" + CAPEX;

        private static final String YES_OR_NO = "You check retrieval before answering. Decide whether the context "
                + "below contains enough information to answer the question. Reply with YES or NO only.";

        @Test
        void shouldReadAGateThatSaidInsufficientInTheGeneratorsPlaceWithItsQuestionAndChunks() {
            ChatDetail d = read(Prompts.user("Given this query: \"" + QUESTION + "\"\n\nAnd these retrieved chunks:\n"
                    + CHUNKS + "\n\nDo these chunks contain sufficient information to answer the query accurately? "
                    + "Respond with only: SUFFICIENT or INSUFFICIENT"), "INSUFFICIENT");

            assertThat(d.role()).isEqualTo(ChatRole.GATE);
            assertThat(d.question()).isEqualTo(QUESTION);
            assertThat(d.contextPassages()).containsExactly(CASH_FLOW, CAPEX);
        }

        @Test
        void shouldReadAGateThatLetTheRunThroughAsNoStage() {
            ChatDetail d = read(Prompts.of("system", YES_OR_NO, "user", "Context:\n" + CHUNKS + "\n\nQuestion: "
                    + QUESTION), "YES");

            assertThat(d.role()).isEqualTo(ChatRole.OTHER);
        }

        @Test
        void shouldReadTheVerdictsGatesAreToldToGive() {
            List<ChatMessage> yesOrNo = Prompts.of("system", YES_OR_NO, "user", "Context:\n" + CHUNKS
                    + "\n\nQuestion: " + QUESTION);
            List<ChatMessage> json = Prompts.of("system", "Determine if the documents are sufficient to answer the "
                    + "user's question. Return JSON: {\"sufficient\": true|false, \"reason\": \"...\"}",
                    "user", "Documents:\n" + CHUNKS + "\n\nQuestion: " + QUESTION);
            List<ChatMessage> canBeAnswered = Prompts.user("Can the question be answered using only the passages "
                    + "below? Answer 'yes' or 'no'.\n\nPassages:\n" + CHUNKS + "\n\nQuestion: " + QUESTION);

            assertThat(read(yesOrNo, "No.").role()).isEqualTo(ChatRole.GATE);
            assertThat(read(yesOrNo, "**No** - the context covers capital expenditure only.").role())
                    .isEqualTo(ChatRole.GATE);
            assertThat(read(json, "{\"sufficient\": false, \"reason\": \"Only capital expenditures.\"}").role())
                    .isEqualTo(ChatRole.GATE);
            assertThat(read(json, "{\"sufficient\": true, \"reason\": \"The first document.\"}").role())
                    .isEqualTo(ChatRole.OTHER);
            assertThat(read(canBeAnswered, "no").role()).isEqualTo(ChatRole.GATE);
            assertThat(read(canBeAnswered, "no").question()).isEqualTo(QUESTION);
        }

        @Test
        void shouldKeepAGeneratorWhoseAnswerIsNoWhenItsInstructionsNameNoVerdictWords() {
            // "if the context does not contain enough information to answer" asks about sufficiency, but names no
            // verdict the reply must give: a "No." here answers the user's yes-or-no question
            ChatDetail d = read(Prompts.of("system", "Answer the question using only the context. If the context does "
                    + "not contain enough information to answer, say you don't know.\n\nContext:\n" + CHUNKS,
                    "user", "Did Acme pay a dividend in 2023?"), "No.");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
        }

        @Test
        void shouldKeepAGateWhoseReplyIsNotAVerdictOutOfTheGeneratorsPlace() {
            // told to answer SUFFICIENT or INSUFFICIENT, it answered the question instead: read as any prompt is
            ChatDetail d = read(Prompts.of("system", YES_OR_NO, "user", "Context:\n" + CHUNKS + "\n\nQuestion: "
                    + QUESTION), "Acme's operating cash flow was $4.2 billion in fiscal 2023, up from $3.1 billion.");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
        }

        @Test
        void shouldReadASelfEvaluationOfTheAnswerAsOther() {
            ChatDetail d = read(Prompts.user("You are evaluating the quality of an AI-generated response.\n\nQuery: "
                    + QUESTION + "\n\nContext:\n" + CHUNKS + "\n\nGenerated response: Acme's operating cash flow "
                    + "was $4.2 billion.\n\nEvaluate the response on two criteria:\n1. GROUNDED: Is every claim "
                    + "directly supported by the context? (yes/no)\n2. COMPLETE: Does the response fully address the "
                    + "query using the available context? (yes/no)\n\nRespond in this exact format:\nGROUNDED: "
                    + "yes/no\nCOMPLETE: yes/no\nREASONING: one sentence explanation"),
                    "GROUNDED: yes\nCOMPLETE: yes\nREASONING: The context states the operating cash flow directly.");

            assertThat(d.role()).isEqualTo(ChatRole.OTHER);
        }
    }

    /**
     * A chunk or document enriched when the index is built, one chat call per chunk, with a document and an
     * instruction: no run, and no stage of one (read as generators, each made a "run" at indexing time).
     */
    @Nested
    class IndexTimeEnrichment {

        private static final String DOCUMENT = "ACME Corp Q2 2023 report. The company's revenue grew by 3% over the "
                + "previous quarter. Operating cash flow was $4.2 billion in fiscal 2023.";
        private static final String CHUNK = "The company's revenue grew by 3% over the previous quarter.";
        private static final String SITUATE = "Please give a short succinct context to situate this chunk within the "
                + "overall document for the purposes of improving search retrieval of the chunk. Answer only with the "
                + "succinct context and nothing else.";

        @Test
        void shouldTakeAnthropicsContextualRetrievalForIndexing() {
            ChatDetail d = read(Prompts.user("<document>\n" + DOCUMENT + "\n</document>\nHere is the chunk we want to "
                    + "situate within the whole document\n<chunk>\n" + CHUNK + "\n</chunk>\n" + SITUATE),
                    "This chunk is from ACME Corp's Q2 2023 report on revenue growth.");

            assertThat(d.role()).isEqualTo(ChatRole.OTHER);
        }

        @Test
        void shouldTakeLlamaIndexsDocumentContextExtractorForIndexing() {
            ChatDetail d = read(Prompts.of("user", "<document>\n" + DOCUMENT + "\n</document>", "user",
                    "Here is the chunk we want to situate within the whole document\n<chunk>\n" + CHUNK + "\n</chunk>\n"
                            + "Generate keywords and brief phrases describing the main topics, entities, and actions in "
                            + "this text. Replace pronouns with their specific referents. Format as comma-separated "
                            + "phrases. Exclude meta-commentary about the text itself."),
                    "ACME Corp, revenue growth, Q2 2023");

            assertThat(d.role()).isEqualTo(ChatRole.OTHER);
        }

        @Test
        void shouldTakeLlamaIndexsTitleAndQuestionsAnsweredExtractorsForIndexing() {
            ChatDetail title = read(Prompts.user("Context: " + CHUNK + ". Give a title that summarizes all of the "
                    + "unique entities, titles or themes found in the context. Title: "), "ACME's Quarterly Revenue");
            ChatDetail questions = read(Prompts.user("Here is the context:\n" + CHUNK + "\n\nGiven the contextual "
                    + "information, generate 5 questions this context can provide specific answers to which are unlikely "
                    + "to be found elsewhere.\n\n"), "1. By how much did ACME's revenue grow in Q2 2023?");

            assertThat(title.role()).isEqualTo(ChatRole.OTHER);
            assertThat(questions.role()).isEqualTo(ChatRole.OTHER);
        }

        @Test
        void shouldTakeLangChainsMultiVectorSummariesAndHypotheticalQuestionsForIndexing() {
            ChatDetail summary = read(Prompts.user("Summarize the following document:\n\n" + DOCUMENT),
                    "ACME's Q2 2023 report: revenue up 3%, operating cash flow $4.2 billion.");
            ChatDetail questions = read(Prompts.user("Generate a list of exactly 3 hypothetical questions that the "
                    + "below document could be used to answer:\n\n" + DOCUMENT),
                    "1. How much did ACME's revenue grow?\n2. What was its operating cash flow?\n3. Which quarter?");

            assertThat(summary.role()).isEqualTo(ChatRole.OTHER);
            assertThat(questions.role()).isEqualTo(ChatRole.OTHER);
        }

        @Test
        void shouldStillReadAGeneratorAskedAboutADocumentAsAGenerator() {
            ChatDetail d = read(Prompts.user("Answer the question using the document below.\n\n<document>\n" + DOCUMENT
                    + "\n</document>\n\nQuestion: How much did ACME's revenue grow in Q2 2023?"), "By 3%.");

            assertThat(d.role()).isEqualTo(ChatRole.GENERATE);
        }
    }
}
