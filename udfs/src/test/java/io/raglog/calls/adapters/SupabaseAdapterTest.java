package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.call;
import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.json;
import static io.raglog.calls.Calls.post;
import static io.raglog.calls.Calls.unreadableReason;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.RetrieveDetail;
import io.raglog.drift.IndexEmbeddings;
import io.raglog.knowledge.IndexedPassages;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Stage;
import org.junit.jupiter.api.Test;

/**
 * Supabase's PostgREST as LangChain's {@code SupabaseVectorStore} uses it: a search by a database function called with
 * the query's vector, the rows it inserts with their embeddings, and the application's other database calls.
 */
class SupabaseAdapterTest {

    private static final String REST = "https://xkqzmbrtwnplvhcjdgfa.supabase.co/rest/v1";

    @Test
    void shouldReadAMatchDocumentsCallAsARetrievalKeepingTheVectorExactly() {
        ClassifiedCall call = classified(post(REST + "/rpc/match_documents", "{'filter':{},'query_embedding':"
                + "[0.1234567,-0.5,0.75],'match_count':2}", 200, "[{'id':41,'content':'Operating cash flow was $4.2 "
                + "billion in 2023.','metadata':{'source':'10-K'},'similarity':0.82},{'id':44,'content':'Revenue grew "
                + "12% in 2022.','metadata':{'source':'10-K'},'similarity':0.71}]"));

        assertThat(call.stage()).isEqualTo(Stage.RETRIEVE);
        RetrieveDetail d = (RetrieveDetail) call.detail();
        assertThat(d.adapter()).isEqualTo("supabase");
        assertThat(d.store()).isEqualTo("supabase");
        assertThat(d.collection()).isEqualTo("match_documents");
        assertThat(d.queryText()).isNull();
        assertThat(d.queryVector()).containsExactly(0.1234567f, -0.5f, 0.75f);
        assertThat(d.topK()).isEqualTo(2);
        assertThat(d.passages()).containsExactly(new Passage("41", "Operating cash flow was $4.2 billion in 2023.",
                0.82, 1), new Passage("44", "Revenue grew 12% in 2022.", 0.71, 2));
    }

    @Test
    void shouldReadAFunctionOfAnyNameItsLimitAndAVectorSentAsPgvectorText() {
        RetrieveDetail d = (RetrieveDetail) classified(post(REST + "/rpc/match_filings?limit=3", "{'query_embedding':"
                + "'[0.5,0.25]'}", 200, "[{'id':'f-7','metadata':{'text':'Operating cash flow was $4.2 billion.'},"
                + "'embedding':'[0.4999,0.2501,0.0001,0.0002,0.0003,0.0004,0.0005,0.0006,0.0007]','similarity':0.9}]"))
                .detail();

        assertThat(d.collection()).isEqualTo("match_filings");
        assertThat(d.queryVector()).containsExactly(0.5f, 0.25f);
        assertThat(d.topK()).as("supabase-js's .limit(k)").isEqualTo(3);
        assertThat(d.passages()).extracting(Passage::text).as("the metadata's text, never the embedding's")
                .containsExactly("Operating cash flow was $4.2 billion.");
    }

    @Test
    void shouldRecogniseABarePostgrestByTheQueryVectorItsFunctionIsCalledWith() {
        ClassifiedCall search = classified(post("http://postgrest:3000/rpc/match_documents", "{'query_embedding':"
                + "[0.5,0.5],'match_count':1}", 200, "[]"));

        assertThat(search.detail().adapter()).isEqualTo("supabase");
        assertThat(((RetrieveDetail) search.detail()).passages()).isEmpty();
        assertThat(new SupabaseAdapter().accepts(post("http://postgrest:3000/rpc/refresh_stats", "{}", 200, "{}")))
                .isFalse();
    }

    @Test
    void shouldKeepTheVectorOfAFailedSearchAndRefuseAVectorThatIsNone() {
        RetrieveDetail failed = (RetrieveDetail) classified(post(REST + "/rpc/match_documents", "{'query_embedding':"
                + "[0.5,0.5],'match_count':4}", 404, "{'code':'PGRST202','details':null,'hint':null,'message':"
                + "'Could not find the function public.match_documents(match_count, query_embedding) in the schema "
                + "cache'}")).detail();

        assertThat(failed.queryVector()).containsExactly(0.5f, 0.5f);
        assertThat(failed.passages()).isEmpty();
        assertThat(unreadableReason(post(REST + "/rpc/match_documents", "{'query_embedding':'abc'}", 200, "[]")))
                .isEqualTo("supabase: 'query_embedding' is text \"abc\", expected a vector");
    }

    @Test
    void shouldCallRowsWrittenWithEmbeddingsIndexBuildingThatTeachesTheKnownPassagesTheirContent() {
        ClassifiedCall insert = classified(post(REST + "/documents?columns=%22content%22%2C%22embedding%22%2C"
                + "%22metadata%22", "[{'content':'Operating cash flow was $4.2 billion in 2023.','embedding':[0.1,0.2],"
                + "'metadata':{'source':'10-K'}},{'content':'Revenue grew 12% in 2022.','embedding':[0.2,0.1],"
                + "'metadata':{}}]", 201, null));
        ClassifiedCall one = classified(post(REST + "/documents", "{'id':7,'content':'Free cash flow was $3.1 "
                + "billion.','embedding':'[0.1,0.2]'}", 201, null));

        NotARunCall n = (NotARunCall) insert.detail();
        assertThat(n.reason()).isEqualTo("index building: 2 rows with embeddings written to documents");
        assertThat(n.buildsIndex()).isTrue();
        assertThat(n.embedsDocuments()).isFalse();
        assertThat(IndexedPassages.read(insert).texts()).containsExactly("Operating cash flow was $4.2 billion in 2023.",
                "Revenue grew 12% in 2022.");
        assertThat(IndexEmbeddings.read(insert)).as("a write names no model").isNull();
        assertThat(IndexedPassages.read(one).texts()).containsExactly("Free cash flow was $3.1 billion.");
    }

    @Test
    void shouldCallTheApplicationsOtherDatabaseCallsNotRunCallsWhateverTheirNames() {
        ClassifiedCall select = classified(call("GET", REST + "/documents?select=id,content&limit=2", null, 200,
                json("[{'id':41,'content':'Operating cash flow was $4.2 billion in 2023.'}]")));
        ClassifiedCall keywords = classified(post(REST + "/rpc/kw_match_documents", "{'query_text':'cash flow',"
                + "'match_count':2}", 200, "[{'id':41,'content':'Operating cash flow was $4.2 billion.'}]"));
        ClassifiedCall table = classified(post(REST + "/embeddings", "[{'model':'text-embedding-3-small','input':"
                + "'cash flow'}]", 201, null));
        ClassifiedCall rerank = classified(post(REST + "/rpc/rerank", "{'query':'cash flow','documents':['a']}", 200,
                "[]"));

        assertThat(((NotARunCall) select.detail()).reason())
                .isEqualTo("database read or write, no similarity query (GET /rest/v1/documents)");
        assertThat(((NotARunCall) keywords.detail()).reason())
                .isEqualTo("database function without a query vector (rpc/kw_match_documents)");
        assertThat(((NotARunCall) table.detail()).reason()).as("a table called embeddings is not OpenAI's API")
                .isEqualTo("database read or write, no similarity query (POST /rest/v1/embeddings)");
        assertThat(rerank.detail().adapter()).isEqualTo("supabase");
        assertThat(IndexedPassages.read(select)).isNull();
    }
}
