package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.post;
import static io.raglog.calls.Calls.postWithTextReply;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ChatDetail;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Azure OpenAI "on your data": the service retrieves and hands its model the documents, and only the reply's
 * {@code context} says which. They are the generator's passages, whole or streamed.
 */
class AzureOnYourDataTest {

    private static final String URL = "https://acme.openai.azure.com/openai/deployments/gpt-4o/chat/completions"
            + "?api-version=2024-10-21";
    private static final String REQUEST = "{'messages':[{'role':'system','content':'Answer from the documents.'},"
            + "{'role':'user','content':'What was Acme cash flow in 2023?'}],'data_sources':[{'type':'azure_search',"
            + "'parameters':{'endpoint':'https://acme.search.windows.net','index_name':'acme-10k','include_contexts':"
            + "['citations','intent','all_retrieved_documents']}}]}";
    private static final String CASH = "Cash flow was $4.2 billion in 2023.";
    private static final String REVENUE = "Revenue grew 12% in 2022.";
    private static final String CONTEXT = "{'citations':[{'content':'" + CASH
            + "','title':'10-K','chunk_id':'0'}],'all_retrieved_documents':[{'content':'" + CASH + "','title':'10-K',"
            + "'chunk_id':'0','filter_reason':null},{'content':'" + REVENUE + "','title':'10-K','chunk_id':'1',"
            + "'filter_reason':null},{'content':'Dividends were paid in December.','title':'10-K','chunk_id':'2',"
            + "'filter_reason':'rerank'}]}";

    @Test
    void shouldReadTheDocumentsTheServiceRetrievedAsThePromptsPassages() {
        ChatDetail whole = (ChatDetail) classified(post(URL, REQUEST, 200, "{'model':'gpt-4o','choices':[{'index':0,"
                + "'message':{'role':'assistant','content':'$4.2 billion [doc1].','context':" + CONTEXT + "}}]}"))
                .detail();
        String context = CONTEXT.replace('\'', '"');
        String events = "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"context\":" + context
                + "}}]}\n\ndata: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"$4.2 billion [doc1].\"}}]}\n\n"
                + "data: [DONE]\n\n";
        ChatDetail streamed = (ChatDetail) classified(postWithTextReply(URL, REQUEST.replace("{'messages'",
                "{'stream':true,'messages'"), 200, events)).detail();

        for (ChatDetail d : List.of(whole, streamed)) {
            assertThat(d.question()).isEqualTo("What was Acme cash flow in 2023?");
            assertThat(d.contextPassages()).containsExactly(CASH, REVENUE);
            assertThat(d.output()).isEqualTo("$4.2 billion [doc1].");
        }
    }

    @Test
    void shouldFallBackToTheCitationsWhenTheRetrievedDocumentsWereNotAskedFor() {
        String citationsOnly = "{'citations':[{'content':'" + CASH + "','filepath':'10-K.pdf','chunk_id':'0'}]}";
        ChatDetail d = (ChatDetail) classified(post(URL, REQUEST, 200, "{'choices':[{'index':0,'message':{'role':"
                + "'assistant','content':'$4.2 billion [doc1].','context':" + citationsOnly + "}}]}")).detail();

        assertThat(d.contextPassages()).containsExactly(CASH);
    }
}
