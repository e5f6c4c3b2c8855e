package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.call;
import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.json;
import static io.raglog.calls.Calls.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.RetrieveDetail;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Stage;
import org.junit.jupiter.api.Test;

/**
 * turbopuffer: queries ranked by a vector or by BM25, in v2's shape and v1's, several at once, and the writes and
 * admin calls around them.
 */
class TurbopufferAdapterTest {

    private static final String NAMESPACE = "https://gcp-us-central1.turbopuffer.com/v2/namespaces/acme-10k";

    @Test
    void shouldReadAVectorQueryWhoseDistancesBecomeScores() {
        ClassifiedCall call = classified(post(NAMESPACE + "/query", "{'rank_by':['vector','ANN',[0.1234567,-0.5]],"
                + "'top_k':2,'distance_metric':'cosine_distance','include_attributes':true}", 200, "{'rows':[{'id':"
                + "'d1','$dist':0.125,'__lc_page_content':'Operating cash flow was $4.2 billion.','source':'10-K'},"
                + "{'id':'d2','$dist':0.25,'__lc_page_content':'Revenue grew 12% in 2022.','source':'10-K'}],"
                + "'billing':{'billable_logical_bytes_queried':256000000}}"));

        assertThat(call.stage()).isEqualTo(Stage.RETRIEVE);
        RetrieveDetail d = (RetrieveDetail) call.detail();
        assertThat(d.adapter()).isEqualTo("turbopuffer");
        assertThat(d.store()).isEqualTo("turbopuffer");
        assertThat(d.collection()).isEqualTo("acme-10k");
        assertThat(d.queryText()).isNull();
        assertThat(d.queryVector()).containsExactly(0.1234567f, -0.5f);
        assertThat(d.topK()).isEqualTo(2);
        assertThat(d.passages()).containsExactly(new Passage("d1", "Operating cash flow was $4.2 billion.", 0.875, 1),
                new Passage("d2", "Revenue grew 12% in 2022.", 0.75, 2));
    }

    @Test
    void shouldReadABm25QueryByItsTextKeepingItsScoresAndALimit() {
        RetrieveDetail d = (RetrieveDetail) classified(post(NAMESPACE + "/query", "{'rank_by':['Sum',[['content',"
                + "'BM25','Acme cash flow'],['title','BM25','Acme cash flow']]],'limit':{'total':1}}", 200,
                "{'rows':[{'id':7,'$dist':11.5,'content':'Operating cash flow was $4.2 billion.'}]}")).detail();

        assertThat(d.queryText()).isEqualTo("Acme cash flow");
        assertThat(d.queryVector()).isNull();
        assertThat(d.topK()).isEqualTo(1);
        assertThat(d.passages()).containsExactly(new Passage("7", "Operating cash flow was $4.2 billion.", 11.5, 1));
    }

    @Test
    void shouldReadV1sBareVectorAndArrayOfRowsOnEitherPath() {
        for (String path : new String[] {"/v1/namespaces/acme-10k/query", "/v1/vectors/acme-10k/query"}) {
            RetrieveDetail d = (RetrieveDetail) classified(post("https://api.turbopuffer.com" + path, "{'vector':"
                    + "[0.5,0.5],'top_k':1,'distance_metric':'cosine_distance','include_attributes':['text']}", 200,
                    "[{'id':'d1','dist':0.25,'attributes':{'text':'Operating cash flow was $4.2 billion.'}}]"))
                    .detail();

            assertThat(d.collection()).isEqualTo("acme-10k");
            assertThat(d.queryVector()).containsExactly(0.5f, 0.5f);
            assertThat(d.passages()).containsExactly(new Passage("d1", "Operating cash flow was $4.2 billion.", 0.75,
                    1));
        }
    }

    @Test
    void shouldReadSeveralQueriesByTheOneThatRanksByAVector() {
        RetrieveDetail d = (RetrieveDetail) classified(post(NAMESPACE + "/query?stainless_overload=multiQuery",
                "{'queries':[{'rank_by':['text','BM25','Acme cash flow'],'top_k':3},{'rank_by':['vector','ANN',"
                        + "[0.5,0.5]],'top_k':2}]}", 200, "{'results':[{'rows':[{'id':'k1','$dist':9.5,'text':"
                        + "'keyword hit'}]},{'rows':[{'id':'v1','$dist':0.5,'text':'vector hit'}]}]}")).detail();

        assertThat(d.queryVector()).containsExactly(0.5f, 0.5f);
        assertThat(d.topK()).isEqualTo(2);
        assertThat(d.passages()).containsExactly(new Passage("v1", "vector hit", 0.5, 1));
    }

    @Test
    void shouldCallWritesIndexBuildingAndLookupsAndAdminNotRunCalls() {
        NotARunCall write = (NotARunCall) classified(post(NAMESPACE, "{'upsert_rows':[{'id':'d1','vector':[0.5,0.5],"
                + "'content':'Operating cash flow was $4.2 billion.'}],'distance_metric':'cosine_distance'}", 200,
                "{'status':'OK','rows_affected':1}")).detail();
        NotARunCall v1Write = (NotARunCall) classified(post("https://api.turbopuffer.com/v1/vectors/acme-10k",
                "{'ids':['d1'],'vectors':[[0.5,0.5]],'attributes':{'__lc_page_content':['text']}}", 200,
                "{'status':'OK'}")).detail();
        NotARunCall byIds = (NotARunCall) classified(post(NAMESPACE + "/query", "{'filters':['id','In',['d1']],"
                + "'limit':1,'include_attributes':true}", 200, "{'rows':[{'id':'d1'}]}")).detail();
        NotARunCall drop = (NotARunCall) classified(call("DELETE", NAMESPACE, null, 200, json("{'status':'ok'}")))
                .detail();
        NotARunCall schema = (NotARunCall) classified(call("GET", "https://gcp-us-central1.turbopuffer.com/v1/"
                + "namespaces/acme-10k/schema", null, 200, json("{'content':{'type':'string'}}"))).detail();

        assertThat(write.reason()).isEqualTo("index building: document writes (/v2/namespaces/acme-10k)");
        assertThat(v1Write.reason()).isEqualTo("index building: document writes (/v1/vectors/acme-10k)");
        assertThat(byIds.reason()).isEqualTo("lookup by filter or attribute order, no similarity query");
        assertThat(drop.reason()).isEqualTo("namespace admin or listing (DELETE /v2/namespaces/acme-10k)");
        assertThat(schema.reason()).isEqualTo("namespace admin or listing (GET /v1/namespaces/acme-10k/schema)");
    }

    @Test
    void shouldBeReadBehindAProxyByItsVersionedNamespacesAndNoOtherStoresPaths() {
        ClassifiedCall proxied = classified(post("http://raglog-proxy:8080/tpuf/v2/namespaces/acme-10k/query",
                "{'rank_by':['vector','ANN',[0.5,0.5]],'top_k':1}", 200, "{'rows':[]}"));
        ClassifiedCall pineconeSearch = classified(post("http://raglog-proxy:8080/pinecone/records/namespaces/acme/"
                + "search", "{'query':{'inputs':{'text':'Acme cash flow'},'top_k':2}}", 200, "{'result':{'hits':[]}}"));
        Classification pineconeUpsert = BuiltInAdapters.classifier().classify(post("http://raglog-proxy:8080/v1/"
                + "vectors/upsert", "{'vectors':[{'id':'d1','values':[0.5,0.5]}]}", 200, "{'upsertedCount':1}"));

        assertThat(proxied.detail().adapter()).isEqualTo("turbopuffer");
        assertThat(pineconeSearch.detail().adapter()).isEqualTo("pinecone");
        assertThat(((Classification.Classified) pineconeUpsert).call().detail().adapter()).isEqualTo("pinecone");
    }
}
