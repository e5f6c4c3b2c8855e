package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.post;
import static io.raglog.calls.Calls.postWithTextReply;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ChatDetail;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.RetrieveDetail;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Stage;
import org.junit.jupiter.api.Test;

/** OpenAI's hosted retrieval: a vector store searched directly, and file search inside a Responses call. */
class OpenAiHostedRetrievalTest {

    private static final String STORE = "https://api.openai.com/v1/vector_stores/vs_1";
    private static final String CASH = "Cash flow was $4.2 billion in 2023.";
    private static final String REVENUE = "Revenue grew 12% in 2022.";

    @Test
    void shouldSearchWithTheQueriesAsSentUnlessTheServiceRewroteThem() {
        String reply = "{'search_query':['acme cash flow 2023'],'data':[{'file_id':'f1','filename':'10k.pdf',"
                + "'score':0.8,'content':[{'type':'text','text':'" + CASH + "'}]},{'file_id':'f1','filename':'10k.pdf','score':0.5,"
                + "'content':'" + REVENUE + "'}]}";
        var call = classified(post(STORE + "/search", "{'query':['Acme cash flow?','Acme 2023'],"
                + "'max_num_results':2}", 200, reply));
        RetrieveDetail rewritten = (RetrieveDetail) classified(post(STORE + "/search", "{'query':'Acme cash flow?',"
                + "'rewrite_query':true}", 200, reply)).detail();

        assertThat(call.stage()).isEqualTo(Stage.RETRIEVE);
        RetrieveDetail d = (RetrieveDetail) call.detail();
        assertThat(d.collection()).isEqualTo("vs_1");
        assertThat(d.queryText()).isEqualTo("Acme cash flow?\nAcme 2023");
        assertThat(d.topK()).isEqualTo(2);
        assertThat(d.passages()).extracting(Passage::text).containsExactly(CASH, REVENUE);
        assertThat(d.passages()).extracting(Passage::id).doesNotHaveDuplicates();
        assertThat(rewritten.queryText()).isEqualTo("acme cash flow 2023");
    }

    @Test
    void shouldCallFilesAddedToAStoreIndexBuildingAndAFailedSearchAQueryWithoutPassages() {
        var files = classified(post(STORE + "/file_batches", "{'file_ids':['f1','f2']}", 200, "{'id':'vsfb_1'}"));
        var failed = classified(post(STORE + "/search", "{'query':'Acme cash flow?'}", 500,
                "{'error':{'message':'server error'}}"));

        assertThat(((NotARunCall) files.detail()).reason()).startsWith("index building");
        assertThat(((RetrieveDetail) failed.detail()).passages()).isEmpty();
    }

    @Test
    void shouldReadFileSearchResultsAsTheGeneratorsPassagesWholeOrStreamed() {
        String request = "{'model':'gpt-4.1-mini','input':'What was Acme cash flow in 2023?','tools':[{'type':"
                + "'file_search','vector_store_ids':['vs_1']}],'include':['file_search_call.results']}";
        String output = "[{'type':'file_search_call','status':'completed','queries':['acme cash flow'],'results':["
                + "{'file_id':'f1','filename':'10k.pdf','score':0.8,'text':'" + CASH + "'},{'file_id':'f1','filename':"
                + "'10k.pdf','score':0.5,'text':'" + REVENUE + "'}]},{'type':'message','role':'assistant','content':"
                + "[{'type':'output_text','text':'$4.2 billion.'}]}]";
        ChatDetail whole = (ChatDetail) classified(post("https://api.openai.com/v1/responses", request, 200,
                "{'model':'gpt-4.1-mini','output':" + output + ",'usage':{'input_tokens':900,'output_tokens':5}}"))
                .detail();
        String completed = ("{'type':'response.completed','response':{'model':'gpt-4.1-mini','output':" + output
                + ",'usage':{'input_tokens':900,'output_tokens':5}}}").replace('\'', '"');
        ChatDetail streamed = (ChatDetail) classified(postWithTextReply("https://api.openai.com/v1/responses",
                request, 200, "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","
                        + "\"delta\":\"$4.2 billion.\"}\n\nevent: response.completed\ndata: " + completed + "\n\n"))
                .detail();

        for (ChatDetail d : java.util.List.of(whole, streamed)) {
            assertThat(d.question()).isEqualTo("What was Acme cash flow in 2023?");
            assertThat(d.contextPassages()).containsExactly(CASH, REVENUE);
            assertThat(d.output()).isEqualTo("$4.2 billion.");
        }
    }
}
