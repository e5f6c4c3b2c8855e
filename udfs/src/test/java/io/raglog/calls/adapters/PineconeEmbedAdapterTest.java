package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.post;
import static io.raglog.calls.Calls.unreadableReason;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.EmbedDetail;
import io.raglog.calls.NotARunCall;
import io.raglog.drift.IndexEmbedding;
import io.raglog.drift.IndexEmbeddings;
import io.raglog.knowledge.IndexedPassages;
import io.raglog.schemas.Stage;
import io.raglog.schemas.TokenUsage;
import org.junit.jupiter.api.Test;

/** Pinecone Inference's {@code /embed}: a query embedded, passages indexed, a sparse model, and TEI's and Cohere's. */
class PineconeEmbedAdapterTest {

    private static final String EMBED = "https://api.pinecone.io/embed";

    @Test
    void shouldReadAQueryEmbeddingWithItsModelVectorAndTokens() {
        ClassifiedCall call = classified(post(EMBED, "{'model':'multilingual-e5-large','parameters':{'input_type':"
                + "'query','truncate':'END'},'inputs':[{'text':'Acme operating cash flow 2023'}]}", 200,
                "{'model':'multilingual-e5-large','vector_type':'dense','data':[{'values':[0.1234567,-0.5,0.75],"
                        + "'vector_type':'dense'}],'usage':{'total_tokens':9}}"));

        assertThat(call.stage()).isEqualTo(Stage.EMBED);
        EmbedDetail d = (EmbedDetail) call.detail();
        assertThat(d.adapter()).isEqualTo("pinecone.embed");
        assertThat(d.model()).isEqualTo("multilingual-e5-large");
        assertThat(d.texts()).containsExactly("Acme operating cash flow 2023");
        assertThat(d.vectors()).hasSize(1);
        assertThat(d.vectors().get(0)).containsExactly(0.1234567f, -0.5f, 0.75f);
        assertThat(d.usage()).isEqualTo(new TokenUsage(9, null));
    }

    @Test
    void shouldTellItFromTeiAndCohereBehindAProxyByItsInputsOfText() {
        String proxy = "http://raglog-proxy:8080/pinecone/embed";
        EmbedDetail pinecone = (EmbedDetail) classified(post(proxy, "{'model':'llama-text-embed-v2','parameters':"
                + "{'input_type':'query'},'inputs':[{'text':'Acme cash flow'}]}", 200, "{'data':[{'values':[0.5,0.5]}]}"))
                .detail();
        ClassifiedCall tei = classified(post("http://tei:8080/embed", "{'inputs':['Acme cash flow']}", 200,
                "[[0.5,0.5]]"));
        ClassifiedCall cohere = classified(post("https://api.cohere.com/v2/embed", "{'model':'embed-english-v3.0',"
                + "'texts':['Acme cash flow'],'input_type':'search_query','embedding_types':['float']}", 200,
                "{'embeddings':{'float':[[0.5,0.5]]},'meta':{'billed_units':{'input_tokens':3}}}"));

        assertThat(pinecone.adapter()).isEqualTo("pinecone.embed");
        assertThat(pinecone.model()).as("the request's, when the reply names none").isEqualTo("llama-text-embed-v2");
        assertThat(tei.detail().adapter()).isEqualTo("tei.embed");
        assertThat(cohere.detail().adapter()).isEqualTo("cohere.embed");
    }

    @Test
    void shouldCallPassagesIndexBuildingThatTeachesTheirTextsModelAndDimension() {
        ClassifiedCall call = classified(post(EMBED, "{'model':'llama-text-embed-v2','parameters':{'input_type':"
                + "'passage','truncate':'END'},'inputs':[{'text':'Operating cash flow was $4.2 billion in 2023.'},"
                + "{'text':'Revenue grew 12% in 2022.'}]}", 200, "{'model':'llama-text-embed-v2','vector_type':'dense',"
                + "'data':[{'values':[0.1,0.2,0.3],'vector_type':'dense'},{'values':[0.3,0.2,0.1],'vector_type':"
                + "'dense'}],'usage':{'total_tokens':21}}"));

        NotARunCall n = (NotARunCall) call.detail();
        assertThat(n.reason()).startsWith("index building: input type 'passage'");
        assertThat(n.embedsDocuments()).isTrue();
        assertThat(IndexedPassages.read(call).texts()).containsExactly("Operating cash flow was $4.2 billion in 2023.",
                "Revenue grew 12% in 2022.");
        IndexEmbedding index = IndexEmbeddings.read(call);
        assertThat(index.model()).isEqualTo("llama-text-embed-v2");
        assertThat(index.dimensions()).isEqualTo(3);
    }

    @Test
    void shouldReadASparseEmbeddingAsNotARunCallThatTeachesNeitherTheIndexNorTheDriftCheck() {
        ClassifiedCall query = classified(post(EMBED, "{'model':'pinecone-sparse-english-v0','parameters':"
                + "{'input_type':'query','truncate':'END'},'inputs':[{'text':'Acme cash flow'}]}", 200,
                "{'model':'pinecone-sparse-english-v0','vector_type':'sparse','data':[{'vector_type':'sparse',"
                        + "'sparse_values':[0.38,1.16],'sparse_indices':[3512895633,1071618306]}],"
                        + "'usage':{'total_tokens':4}}"));
        ClassifiedCall passages = classified(post(EMBED, "{'model':'pinecone-sparse-english-v0','parameters':"
                + "{'input_type':'passage'},'inputs':[{'text':'Operating cash flow was $4.2 billion in 2023.'}]}", 200,
                "{'vector_type':'sparse','data':[{'sparse_values':[0.5],'sparse_indices':[7]}]}"));
        ClassifiedCall failed = classified(post(EMBED, "{'model':'pinecone-sparse-english-v0','parameters':"
                + "{'input_type':'query'},'inputs':[{'text':'Acme cash flow'}]}", 429,
                "{'error':{'code':'RESOURCE_EXHAUSTED','message':'Request rate limit exceeded.'},'status':429}"));

        for (ClassifiedCall c : new ClassifiedCall[] {query, passages, failed}) {
            assertThat(c.stage()).isNull();
            NotARunCall n = (NotARunCall) c.detail();
            assertThat(n.adapter()).isEqualTo("pinecone.embed");
            assertThat(n.reason()).startsWith("sparse embedding (pinecone-sparse-english-v0)");
            assertThat(n.buildsIndex()).isFalse();
            assertThat(IndexedPassages.read(c)).isNull();
            assertThat(IndexEmbeddings.read(c)).isNull();
        }
    }

    @Test
    void shouldKeepTheTextsOfAFailedCallAndRefuseAReplyOfTheWrongCount() {
        EmbedDetail failed = (EmbedDetail) classified(post(EMBED, "{'model':'llama-text-embed-v2','parameters':"
                + "{'input_type':'query'},'inputs':[{'text':'Acme cash flow'}]}", 503, "{'error':{'code':'UNAVAILABLE',"
                + "'message':'Service unavailable'},'status':503}")).detail();

        assertThat(failed.texts()).containsExactly("Acme cash flow");
        assertThat(failed.vectors()).isEmpty();
        assertThat(unreadableReason(post(EMBED, "{'model':'llama-text-embed-v2','parameters':{'input_type':'query'},"
                + "'inputs':[{'text':'a'},{'text':'b'}]}", 200, "{'data':[{'values':[0.5]}]}")))
                .isEqualTo("pinecone.embed: data has 1 vectors for 2 inputs");
        assertThat(unreadableReason(post(EMBED, "{'model':'llama-text-embed-v2','inputs':[{'text':7}]}", 200,
                "{'data':[{'values':[0.5]}]}"))).isEqualTo("pinecone.embed: 'inputs[0].text' is a number, expected a "
                + "string");
    }
}
