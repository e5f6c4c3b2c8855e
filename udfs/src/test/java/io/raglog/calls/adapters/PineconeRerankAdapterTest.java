package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.RerankDetail;
import io.raglog.calls.RerankDetail.RerankResult;
import io.raglog.schemas.Stage;
import org.junit.jupiter.api.Test;

/**
 * Pinecone Inference's {@code /rerank}, which Voyage's adapter took before (a reply with a {@code data} list) and
 * could not read: documents as objects or strings, their text in the rank fields, and told apart behind a proxy.
 */
class PineconeRerankAdapterTest {

    private static final String RERANK = "https://api.pinecone.io/rerank";
    private static final String REPLY = "{'model':'bge-reranker-v2-m3','data':[{'index':1,'score':0.21,'document':"
            + "{'id':'d2'}},{'index':0,'score':0.93,'document':{'id':'d1'}}],'usage':{'rerank_units':1}}";

    @Test
    void shouldReadDocumentsByTheirTextAndResultsBestFirst() {
        ClassifiedCall call = classified(post(RERANK, "{'model':'bge-reranker-v2-m3','query':'Acme cash flow 2023',"
                + "'documents':[{'id':'d1','text':'Operating cash flow was $4.2 billion.','source':'10-K'},"
                + "{'id':'d2','text':'Revenue grew 12%.'}],'top_n':2,'return_documents':true,'parameters':"
                + "{'truncate':'END'}}", 200, REPLY));

        assertThat(call.stage()).isEqualTo(Stage.RERANK);
        RerankDetail d = (RerankDetail) call.detail();
        assertThat(d.adapter()).isEqualTo("pinecone.rerank");
        assertThat(d.model()).isEqualTo("bge-reranker-v2-m3");
        assertThat(d.query()).isEqualTo("Acme cash flow 2023");
        assertThat(d.documents()).containsExactly("Operating cash flow was $4.2 billion.", "Revenue grew 12%.");
        assertThat(d.results()).containsExactly(new RerankResult(0, 0.93), new RerankResult(1, 0.21));
        assertThat(d.topN()).isEqualTo(2);
    }

    @Test
    void shouldTakeADocumentsTextFromTheFieldsRankFieldsNames() {
        RerankDetail d = (RerankDetail) classified(post(RERANK, "{'model':'cohere-rerank-3.5','query':'Acme cash flow',"
                + "'documents':[{'id':'d1','text':'a title, not what was ranked','chunk_text':'Operating cash flow "
                + "was $4.2 billion.','section':'Liquidity'},{'id':'d2','chunk_text':'Revenue grew 12%.'}],"
                + "'rank_fields':['section','chunk_text'],'top_n':2}", 200, REPLY)).detail();

        assertThat(d.documents()).containsExactly("Liquidity\nOperating cash flow was $4.2 billion.",
                "Revenue grew 12%.");
    }

    @Test
    void shouldBeToldApartBehindAProxyByItsModelsOrItsRerankUnits() {
        String proxy = "http://raglog-proxy:8080/pinecone/rerank";
        ClassifiedCall byModel = classified(post(proxy, "{'model':'pinecone-rerank-v0','query':'Acme cash flow',"
                + "'documents':['Operating cash flow was $4.2 billion.','Revenue grew 12%.'],'top_n':1}", 503,
                "{'error':{'code':'UNAVAILABLE','message':'Service unavailable'},'status':503}"));
        ClassifiedCall byUnits = classified(post(proxy, "{'model':'some-later-model','query':'Acme cash flow',"
                + "'documents':['Operating cash flow was $4.2 billion.','Revenue grew 12%.']}", 200, REPLY));
        ClassifiedCall voyage = classified(post("http://raglog-proxy:8080/voyage/v1/rerank", "{'model':'rerank-2',"
                + "'query':'Acme cash flow','documents':['Operating cash flow was $4.2 billion.','Revenue grew 12%.'],"
                + "'top_k':1}", 200, "{'object':'list','data':[{'index':0,'relevance_score':0.92}],'model':'rerank-2',"
                + "'usage':{'total_tokens':31}}"));

        assertThat(byModel.detail().adapter()).isEqualTo("pinecone.rerank");
        assertThat(((RerankDetail) byModel.detail()).results()).isEmpty();
        assertThat(byUnits.detail().adapter()).isEqualTo("pinecone.rerank");
        assertThat(((RerankDetail) byUnits.detail()).model()).as("the reply's").isEqualTo("bge-reranker-v2-m3");
        assertThat(voyage.detail().adapter()).isEqualTo("voyage.rerank");
    }
}
