package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.Calls;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.EmbedDetail;
import io.raglog.calls.NotARunCall;
import io.raglog.drift.IndexEmbedding;
import io.raglog.drift.IndexEmbeddings;
import io.raglog.knowledge.IndexedPassages;
import io.raglog.schemas.Stage;
import org.junit.jupiter.api.Test;

/** Gemini's embeddings: a query embedded for retrieval, and documents embedded for the index. */
class GeminiEmbedAdapterTest {

    private static final String BASE = "https://generativelanguage.googleapis.com/v1beta/models/text-embedding-004";

    @Test
    void shouldReadAQueryEmbeddingAsTheEmbedStage() {
        ClassifiedCall call = classified(post(BASE + ":embedContent", "{'content':{'parts':[{'text':'Acme operating "
                + "cash flow 2023'}]},'taskType':'RETRIEVAL_QUERY'}", 200,
                "{'embedding':{'values':[0.25,-0.5,0.75]}}"));
        assertThat(call.stage()).isEqualTo(Stage.EMBED);
        EmbedDetail d = (EmbedDetail) call.detail();
        assertThat(d.adapter()).isEqualTo("gemini.embed");
        assertThat(d.model()).isEqualTo("text-embedding-004");
        assertThat(d.texts()).containsExactly("Acme operating cash flow 2023");
        assertThat(d.vectors()).singleElement().satisfies(v -> assertThat(v).containsExactly(0.25f, -0.5f, 0.75f));
    }

    @Test
    void shouldRefuseAReplyWithoutItsVectorWithAReason() {
        assertThat(Calls.unreadableReason(post(BASE + ":embedContent", "{'content':{'parts':[{'text':'Acme cash "
                + "flow'}]},'taskType':'RETRIEVAL_QUERY'}", 200, "{'embedding':{}}")))
                .contains("embedding.values is missing");
    }

    @Test
    void shouldReadABatchOfDocumentsAsIndexBuildingThatTeachesThePassagesAndTheIndexsModel() {
        ClassifiedCall call = classified(post(BASE + ":batchEmbedContents", "{'requests':[{'model':"
                + "'models/text-embedding-004','content':{'parts':[{'text':'Operating cash flow was $4.1 billion in "
                + "2023.'}]},'taskType':'RETRIEVAL_DOCUMENT'},{'model':'models/text-embedding-004','content':{'parts':"
                + "[{'text':'Revenue grew 12% in 2022.'}]},'taskType':'RETRIEVAL_DOCUMENT'}]}", 200,
                "{'embeddings':[{'values':[0.1,0.2,0.3,0.4]},{'values':[0.4,0.3,0.2,0.1]}]}"));
        assertThat(call.stage()).isNull();
        assertThat(call.detail()).isInstanceOfSatisfying(NotARunCall.class,
                n -> assertThat(n.embedsDocuments()).isTrue());
        assertThat(IndexedPassages.read(call).texts()).containsExactly("Operating cash flow was $4.1 billion in 2023.",
                "Revenue grew 12% in 2022.");
        IndexEmbedding index = IndexEmbeddings.read(call);
        // the query's model as the path names it, not the batch's "models/…", so that drift compares like with like
        assertThat(index.model()).isEqualTo("text-embedding-004");
        assertThat(index.dimensions()).isEqualTo(4);
    }
}
