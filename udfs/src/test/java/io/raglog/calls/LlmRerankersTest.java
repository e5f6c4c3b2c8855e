package io.raglog.calls;

import static io.raglog.calls.Prompts.CAPEX;
import static io.raglog.calls.Prompts.CASH_FLOW;
import static io.raglog.calls.Prompts.DIVIDEND;
import static io.raglog.calls.Prompts.QUESTION;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A chat model as the reranker, in the prompts LlamaIndex's LLMRerank and RankGPT send (their templates' shapes, filled
 * with realistic values): read as the rerank stage with the documents in prompt order, the question, and the ranking
 * the reply gives.
 */
class LlmRerankersTest {

    /** LlamaIndex's choice-select prompt: instructions, an example list and answer, then the documents and question. */
    static final String CHOICE_SELECT = "A list of documents is shown below. Each document has a number next to it "
            + "along with a summary of the document. A question is also provided. \nRespond with the numbers of the "
            + "documents you should consult to answer the question, in order of relevance, as well \nas the relevance "
            + "score. The relevance score is a number from 1-10 based on how relevant you think the document is to the "
            + "question.\nDo not include any documents that are not relevant to the question. \nExample format: \n"
            + "Document 1:\n<summary of document 1>\n\nDocument 2:\n<summary of document 2>\n\n...\n\nDocument 10:\n"
            + "<summary of document 10>\n\nQuestion: <question>\nAnswer:\nDoc: 9, Relevance: 7\nDoc: 3, Relevance: 4\n"
            + "Doc: 7, Relevance: 3\n\nLet's try this now: \n\nDocument 1:\n" + CASH_FLOW + "\n\nDocument 2:\n" + CAPEX
            + "\n\nDocument 3:\n" + DIVIDEND + "\n\nQuestion: " + QUESTION + "\nAnswer:\n";

    static final String RANKGPT_SYSTEM = "You are RankGPT, an intelligent assistant that can rank passages based on "
            + "their relevancy to the query.";
    static final String RANKGPT_INTRO = "I will provide you with 3 passages, each indicated by number identifier []. \n"
            + "Rank the passages based on their relevance to query: " + QUESTION + ".";
    static final String RANKGPT_ASK = "Search Query: " + QUESTION + ". \nRank the 3 passages above based on their "
            + "relevance to the search query. The passages should be listed in descending order using identifiers. "
            + "The most relevant passages should be listed first. The output format should be [] > [], e.g., [1] > "
            + "[2]. Only response the ranking results, do not say any word or explain.";

    private static ChatDetail chat(List<ChatMessage> messages, String reply) {
        return ChatDetails.of("openai.chat", "gpt-4o-mini", messages, reply, null, false);
    }

    @Test
    void shouldReadLlamaIndexsChoiceSelectAsARerankOfTheDocumentsAfterItsExample() {
        ChatDetail chat = chat(Prompts.user(CHOICE_SELECT), "Doc: 1, Relevance: 9\nDoc: 3, Relevance: 2");

        assertThat(chat.role()).isEqualTo(ChatRole.RERANK);
        RerankDetail rerank = LlmRerankers.read(chat);
        assertThat(rerank.adapter()).isEqualTo("openai.chat.llm_rerank");
        assertThat(rerank.query()).isEqualTo(QUESTION);
        assertThat(rerank.documents()).containsExactly(CASH_FLOW, CAPEX, DIVIDEND);
        assertThat(rerank.results()).containsExactly(new RerankDetail.RerankResult(0, 9.0),
                new RerankDetail.RerankResult(2, 2.0));
        assertThat(rerank.topN()).isNull();
    }

    @Test
    void shouldReadRankGptWithItsPassagesInOneMessageOrOneToAMessage() {
        List<ChatMessage> oneMessage = Prompts.of("system", RANKGPT_SYSTEM, "user", RANKGPT_INTRO + "\n\n[1] "
                + CASH_FLOW + "\n\n[2] " + CAPEX + "\n\n[3] " + DIVIDEND + "\n\n" + RANKGPT_ASK);
        List<ChatMessage> conversation = Prompts.of("system", RANKGPT_SYSTEM, "user", RANKGPT_INTRO,
                "assistant", "Okay, please provide the passages.",
                "user", "[1] " + CASH_FLOW, "assistant", "Received passage [1].",
                "user", "[2] " + CAPEX, "assistant", "Received passage [2].",
                "user", "[3] " + DIVIDEND, "assistant", "Received passage [3].",
                "user", RANKGPT_ASK);

        for (List<ChatMessage> messages : List.of(oneMessage, conversation)) {
            ChatDetail chat = chat(messages, "[1] > [3] > [2]");
            assertThat(chat.role()).isEqualTo(ChatRole.RERANK);
            RerankDetail rerank = LlmRerankers.read(chat);
            assertThat(rerank.query()).isEqualTo(QUESTION);
            assertThat(rerank.documents()).containsExactly(CASH_FLOW, CAPEX, DIVIDEND);
            // an order, no scores
            assertThat(rerank.results()).containsExactly(new RerankDetail.RerankResult(0, null),
                    new RerankDetail.RerankResult(2, null), new RerankDetail.RerankResult(1, null));
        }
    }

    @Test
    void shouldLeaveACallThatWasAskedToRankButAnsweredOtherwiseOutOfTheRerank() {
        // told to rank, it wrote an answer: no ranking to read, so it is not the reranker
        assertThat(chat(Prompts.user(CHOICE_SELECT), "Acme's operating cash flow was $4.2 billion in 2023.").role())
                .isNotEqualTo(ChatRole.RERANK);
        assertThat(LlmRerankers.ranking("[1] is the most relevant, then [3].")).isNull();
        assertThat(LlmRerankers.ranking("Doc: 2, Relevance: 8\nDoc: 2, Relevance: 8")).hasSize(1);
    }

    @Test
    void shouldKeepAGeneratorThatCitesBracketedSourcesAGenerator() {
        ChatDetail chat = chat(Prompts.of("system", "Answer from the numbered sources and cite them.",
                "user", "Sources:\n[1] " + CASH_FLOW + "\n\n[2] " + CAPEX + "\n\nQuestion: " + QUESTION),
                "[1] > [2]");
        // a reply shaped like a ranking, but nothing asked for one
        assertThat(chat.role()).isEqualTo(ChatRole.GENERATE);
    }
}
