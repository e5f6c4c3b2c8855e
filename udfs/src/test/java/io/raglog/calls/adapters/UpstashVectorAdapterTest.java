package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.call;
import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.json;
import static io.raglog.calls.Calls.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.RetrieveDetail;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Stage;
import org.junit.jupiter.api.Test;

/**
 * Upstash Vector: queries by vector and by text, the writes that build the index, and its {@code /query} told from
 * Pinecone's behind a proxy, which took it before.
 */
class UpstashVectorAdapterTest {

    private static final String INDEX = "https://polished-gecko-48213-us1-vector.upstash.io";

    @Test
    void shouldReadAQueryByVectorWithTheTextLangChainKeepsInTheMetadata() {
        ClassifiedCall call = classified(post(INDEX + "/query", "{'vector':[0.1234567,-0.5],'topK':2,"
                + "'includeVectors':false,'includeMetadata':true}", 200, "{'result':[{'id':'d1','score':0.91,"
                + "'metadata':{'_pageContentLC':'Operating cash flow was $4.2 billion.','source':'10-K'}},{'id':'d2',"
                + "'score':0.88,'metadata':{'text':'Revenue grew 12% in 2022.','source':'10-K'}}]}"));

        assertThat(call.stage()).isEqualTo(Stage.RETRIEVE);
        RetrieveDetail d = (RetrieveDetail) call.detail();
        assertThat(d.adapter()).isEqualTo("upstash");
        assertThat(d.store()).isEqualTo("upstash");
        assertThat(d.collection()).as("the default namespace").isNull();
        assertThat(d.queryText()).isNull();
        assertThat(d.queryVector()).containsExactly(0.1234567f, -0.5f);
        assertThat(d.topK()).isEqualTo(2);
        assertThat(d.passages()).containsExactly(new Passage("d1", "Operating cash flow was $4.2 billion.", 0.91, 1),
                new Passage("d2", "Revenue grew 12% in 2022.", 0.88, 2));
    }

    @Test
    void shouldReadAQueryByTextInANamespaceWithTheTextTheIndexKeeps() {
        RetrieveDetail d = (RetrieveDetail) classified(post(INDEX + "/query-data/acme-10k", "{'data':'Acme cash flow',"
                + "'topK':1,'includeMetadata':true,'includeData':true}", 200, "{'result':[{'id':'d1','score':0.88,"
                + "'metadata':{'text':'a title'},'data':'Operating cash flow was $4.2 billion.'}]}")).detail();

        assertThat(d.collection()).isEqualTo("acme-10k");
        assertThat(d.queryText()).isEqualTo("Acme cash flow");
        assertThat(d.queryVector()).isNull();
        assertThat(d.passages()).extracting(Passage::text).containsExactly("Operating cash flow was $4.2 billion.");
    }

    @Test
    void shouldTellItsQueryFromPineconesBehindAProxy() {
        String proxy = "http://raglog-proxy:8080/vectors/query";
        ClassifiedCall upstash = classified(post(proxy, "{'vector':[0.5,0.5],'topK':1,'includeMetadata':true}", 200,
                "{'result':[{'id':'d1','score':0.9,'metadata':{'text':'Operating cash flow was $4.2 billion.'}}]}"));
        ClassifiedCall upstashNamespace = classified(post(proxy + "/acme-10k", "{'vector':[0.5,0.5],'topK':1,"
                + "'includeData':true}", 503, "{'error':'service unavailable'}"));
        ClassifiedCall pinecone = classified(post(proxy, "{'vector':[0.5,0.5],'topK':1,'includeMetadata':true,"
                + "'includeValues':false,'namespace':''}", 200, "{'matches':[{'id':'d1','score':0.9,'metadata':"
                + "{'text':'Operating cash flow was $4.2 billion.'}}],'namespace':''}"));

        assertThat(upstash.detail().adapter()).isEqualTo("upstash");
        assertThat(((RetrieveDetail) upstash.detail()).passages()).hasSize(1);
        assertThat(upstashNamespace.detail().adapter()).isEqualTo("upstash");
        assertThat(((RetrieveDetail) upstashNamespace.detail()).collection()).isEqualTo("acme-10k");
        assertThat(pinecone.detail().adapter()).isEqualTo("pinecone");
        assertThat(((RetrieveDetail) pinecone.detail()).passages()).hasSize(1);
    }

    @Test
    void shouldReadTheFirstOfSeveralQueriesSentAtOnce() {
        RetrieveDetail d = (RetrieveDetail) classified(post(INDEX + "/query", "[{'vector':[0.5,0.5],'topK':1},"
                + "{'vector':[0.1,0.9],'topK':1}]", 200, "{'result':[[{'id':'d1','score':0.9,'data':'first'}],"
                + "[{'id':'d2','score':0.8,'data':'second'}]]}")).detail();

        assertThat(d.queryVector()).containsExactly(0.5f, 0.5f);
        assertThat(d.passages()).extracting(Passage::text).containsExactly("first");
    }

    @Test
    void shouldCallWritesIndexBuildingAndLookupsAndAdminNotRunCalls() {
        for (String write : new String[] {"/upsert", "/upsert/acme-10k", "/upsert-data/acme-10k", "/update",
            "/delete/acme-10k"}) {
            NotARunCall n = (NotARunCall) classified(post(INDEX + write, "[{'id':'d1','data':'text'}]", 200,
                    "{'result':'Success'}")).detail();
            assertThat(n.adapter()).isEqualTo("upstash");
            assertThat(n.reason()).as(write).isEqualTo("index building: vector writes (" + write + ")");
        }
        NotARunCall fetch = (NotARunCall) classified(post(INDEX + "/fetch", "{'ids':['d1'],'includeData':true}", 200,
                "{'result':[{'id':'d1','data':'text'}]}")).detail();
        NotARunCall info = (NotARunCall) classified(call("GET", INDEX + "/info", null, 200,
                json("{'result':{'vectorCount':1284,'dimension':1536}}"))).detail();

        assertThat(fetch.reason()).isEqualTo("index admin or lookup by id (POST /fetch)");
        assertThat(info.reason()).isEqualTo("index admin or lookup by id (GET /info)");
        assertThat(new UpstashVectorAdapter().accepts(post("http://raglog-proxy:8080/upstash/upsert-data", "[]", 200,
                "{}"))).isTrue();
    }
}
