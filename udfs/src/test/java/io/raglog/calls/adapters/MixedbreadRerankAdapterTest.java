package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.RerankDetail;
import io.raglog.calls.RerankDetail.RerankResult;
import io.raglog.schemas.Stage;
import org.junit.jupiter.api.Test;

/** Mixedbread's {@code /v1/reranking}: its {@code input} and {@code top_k}, on either host or behind a proxy. */
class MixedbreadRerankAdapterTest {

    private static final String REPLY = "{'model':'mixedbread-ai/mxbai-rerank-large-v1','data':[{'index':1,"
            + "'score':0.12,'object':'rank_result'},{'index':0,'score':0.97,'object':'rank_result'}],'object':'list',"
            + "'top_k':2}";

    @Test
    void shouldReadTheInputsAndTheirScoresBestFirst() {
        ClassifiedCall call = classified(post("https://api.mixedbread.ai/v1/reranking", "{'model':"
                + "'mixedbread-ai/mxbai-rerank-large-v1','query':'Acme cash flow 2023','input':['Operating cash flow "
                + "was $4.2 billion.','Revenue grew 12%.'],'top_k':2,'return_input':false}", 200, REPLY));

        assertThat(call.stage()).isEqualTo(Stage.RERANK);
        RerankDetail d = (RerankDetail) call.detail();
        assertThat(d.adapter()).isEqualTo("mixedbread.rerank");
        assertThat(d.model()).isEqualTo("mixedbread-ai/mxbai-rerank-large-v1");
        assertThat(d.documents()).containsExactly("Operating cash flow was $4.2 billion.", "Revenue grew 12%.");
        assertThat(d.results()).containsExactly(new RerankResult(0, 0.97), new RerankResult(1, 0.12));
        assertThat(d.topN()).isEqualTo(2);
    }

    @Test
    void shouldReadObjectInputsByTheirRankFieldsBehindAProxy() {
        RerankDetail d = (RerankDetail) classified(post("http://raglog-proxy:8080/mixedbread/v1/reranking", "{'model':"
                + "'mixedbread-ai/mxbai-rerank-large-v1','query':'Acme cash flow','input':[{'text':'Liquidity',"
                + "'summary':'Operating cash flow was $4.2 billion.'},{'text':'Revenue','summary':'Revenue grew 12%.'}],"
                + "'rank_fields':['summary']}", 200, REPLY)).detail();

        assertThat(d.documents()).containsExactly("Operating cash flow was $4.2 billion.", "Revenue grew 12%.");
        assertThat(d.topN()).isNull();
    }
}
