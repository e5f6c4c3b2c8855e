package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.call;
import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.RetrieveDetail;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Stage;
import org.junit.jupiter.api.Test;

/**
 * Vertex AI Vector Search: a search by a query vector answered with datapoint ids, and the calls around it that
 * write or look up the index's datapoints.
 */
class VertexVectorSearchAdapterTest {

    private static final String PUBLIC = "https://1957880287.us-central1-106236475925.vdb.vertexai.goog/v1/projects/"
            + "106236475925/locations/us-central1/indexEndpoints/4514125379258482688";
    private static final String REGIONAL = "https://us-central1-aiplatform.googleapis.com/v1/projects/acme-ir-prod/"
            + "locations/us-central1";

    @Test
    void shouldReadASearchByVectorAsARetrievalOfIdsKeepingTheVectorExactly() {
        ClassifiedCall call = classified(post(PUBLIC + ":findNeighbors", "{'deployed_index_id':'acme_10k_2023',"
                + "'queries':[{'datapoint':{'datapoint_id':'q','feature_vector':[0.1234567,-0.5,0.75]},"
                + "'neighbor_count':3}],'return_full_datapoint':false}", 200, "{'nearestNeighbors':[{'id':'q',"
                + "'neighbors':[{'datapoint':{'datapointId':'doc-17','crowdingTag':{'crowdingAttribute':'0'}},"
                + "'distance':0.83},{'datapoint':{'datapointId':'doc-4','restricts':[{'namespace':'source',"
                + "'allowList':['10-K']}]},'distance':0.71},{'datapoint':{'datapointId':'doc-9'},'distance':0.5}]}]}"));

        assertThat(call.stage()).isEqualTo(Stage.RETRIEVE);
        RetrieveDetail d = (RetrieveDetail) call.detail();
        assertThat(d.adapter()).isEqualTo("vertex.vector-search");
        assertThat(d.store()).isEqualTo("vertex-vector-search");
        assertThat(d.collection()).isEqualTo("acme_10k_2023");
        assertThat(d.queryText()).isNull();
        assertThat(d.queryVector()).containsExactly(0.1234567f, -0.5f, 0.75f);
        assertThat(d.topK()).isEqualTo(3);
        assertThat(d.passages()).containsExactly(new Passage("doc-17", null, 0.83, 1),
                new Passage("doc-4", null, 0.71, 2), new Passage("doc-9", null, 0.5, 3));
    }

    @Test
    void shouldReadCamelCaseFieldsAndAPassageTheIndexKeepsInItsEmbeddingMetadata() {
        RetrieveDetail d = (RetrieveDetail) classified(post(REGIONAL + "/indexEndpoints/4514125379258482688"
                + ":findNeighbors", "{'queries':[{'datapoint':{'datapointId':'q','featureVector':[0.5,0.5]},"
                + "'neighborCount':1}],'returnFullDatapoint':true}", 200, "{'nearestNeighbors':[{'id':'q',"
                + "'neighbors':[{'datapoint':{'datapointId':'doc-17','featureVector':[0.5,0.4],'embeddingMetadata':"
                + "{'text':'Operating cash flow was $4.2 billion in 2023.','source':'10-K'}},'distance':0.45}]}]}"))
                .detail();

        assertThat(d.queryVector()).containsExactly(0.5f, 0.5f);
        assertThat(d.topK()).isEqualTo(1);
        assertThat(d.collection()).as("the index endpoint, when no deployed index is named")
                .isEqualTo("4514125379258482688");
        assertThat(d.passages()).containsExactly(
                new Passage("doc-17", "Operating cash flow was $4.2 billion in 2023.", 0.45, 1));
    }

    @Test
    void shouldTurnDistancesThatGrowDownTheListIntoScoresThatShrink() {
        RetrieveDetail d = (RetrieveDetail) classified(post(PUBLIC + ":findNeighbors", "{'deployedIndexId':'l2',"
                + "'queries':[{'datapoint':{'featureVector':[0.5,0.5]},'neighborCount':3}]}", 200,
                "{'nearestNeighbors':[{'neighbors':[{'datapoint':{'datapointId':'exact'}},{'datapoint':"
                        + "{'datapointId':'near'},'distance':0.25},{'datapoint':{'datapointId':'far'},"
                        + "'distance':1.5}]}]}")).detail();

        // proto3's JSON leaves an exact match's zero distance out
        assertThat(d.passages()).extracting(Passage::score).containsExactly(1.0, 0.75, -0.5);
    }

    @Test
    void shouldKeepTheVectorOfAFailedSearchAndReadAnEmptyOneAsNoPassages() {
        String request = "{'deployedIndexId':'acme_10k_2023','queries':[{'datapoint':{'featureVector':[0.5,0.5]},"
                + "'neighborCount':4}]}";
        RetrieveDetail failed = (RetrieveDetail) classified(post(PUBLIC + ":findNeighbors", request, 503,
                "{'error':{'code':503,'message':'The service is currently unavailable.','status':'UNAVAILABLE'}}"))
                .detail();
        RetrieveDetail empty = (RetrieveDetail) classified(post(PUBLIC + ":findNeighbors", request, 200, "{}"))
                .detail();

        assertThat(failed.queryVector()).containsExactly(0.5f, 0.5f);
        assertThat(failed.passages()).isEmpty();
        assertThat(empty.passages()).isEmpty();
    }

    @Test
    void shouldCallDatapointWritesIndexBuildingAndLookupsByIdNotARunCall() {
        ClassifiedCall upsert = classified(post(REGIONAL + "/indexes/7832619845231542272:upsertDatapoints",
                "{'datapoints':[{'datapointId':'doc-17','featureVector':[0.1,0.2]}]}", 200, "{}"));
        ClassifiedCall remove = classified(post(REGIONAL + "/indexes/7832619845231542272:removeDatapoints",
                "{'datapointIds':['doc-17']}", 200, "{}"));
        ClassifiedCall readByPost = classified(post(PUBLIC + ":readIndexDatapoints",
                "{'deployedIndexId':'acme_10k_2023','ids':['doc-17']}", 200, "{'datapoints':[{'datapointId':"
                        + "'doc-17','featureVector':[0.1,0.2]}]}"));
        ClassifiedCall readByGet = classified(call("GET", PUBLIC + ":readIndexDatapoints?deployedIndexId=acme_10k_2023"
                + "&ids=doc-17", null, 200, io.raglog.calls.Calls.json("{'datapoints':[]}")));

        for (ClassifiedCall c : new ClassifiedCall[] {upsert, remove, readByPost, readByGet}) {
            assertThat(c.stage()).isNull();
            assertThat(c.detail().adapter()).isEqualTo("vertex.vector-search");
        }
        assertThat(((NotARunCall) upsert.detail()).reason()).startsWith("index building: datapoint writes");
        assertThat(((NotARunCall) remove.detail()).reason()).startsWith("index building: datapoint writes");
        assertThat(((NotARunCall) readByPost.detail()).reason()).startsWith("index admin or lookup by id (POST");
        assertThat(((NotARunCall) readByGet.detail()).reason()).startsWith("index admin or lookup by id (GET");
    }
}
