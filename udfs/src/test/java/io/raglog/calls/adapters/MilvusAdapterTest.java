package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.post;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.RetrieveDetail;
import io.raglog.knowledge.IndexedPassages;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Stage;
import org.junit.jupiter.api.Test;

/**
 * Milvus's RESTful API (and Zilliz Cloud's): searches by vector or by text, their distances made scores by the metric
 * the search names or by their order, an error answered with HTTP 200, and the writes that build the index.
 */
class MilvusAdapterTest {

    private static final String MILVUS = "http://milvus:19530";
    private static final String CASH = "Net cash provided by operating activities was $4.2 billion in fiscal 2023.";
    private static final String CAPEX = "Capital expenditures were $1.1 billion in fiscal 2023, mostly for warehouses.";

    @Test
    void shouldReadAHybridSearchByItsFirstSubSearchsVectorAndCutTheHitsAtTheLimit() {
        RetrieveDetail d = (RetrieveDetail) classified(post(MILVUS + "/v2/vectordb/entities/hybrid_search",
                "{'collectionName':'kb','search':[{'data':[[0.25,-0.5]],'annsField':'dense','limit':5},"
                + "{'data':['operating cash flow 2023'],'annsField':'sparse','limit':5}],"
                + "'rerank':{'strategy':'rrf','params':{'k':60}},'limit':2,'outputFields':['text']}", 200,
                "{'code':0,'cost':3,'data':[{'id':'a','distance':0.032,'text':'" + CASH + "'},"
                + "{'id':'b','distance':0.031,'text':'" + CAPEX + "'},{'id':'c','distance':0.016,'text':'x'}]}"))
                .detail();

        assertThat(d.queryVector()).containsExactly(0.25f, -0.5f);
        assertThat(d.queryText()).isNull();
        assertThat(d.topK()).isEqualTo(2);
        assertThat(d.passages()).as("no more than the limit: a search of several vectors lists their hits in turn")
                .containsExactly(new Passage("a", CASH, 0.032, 1), new Passage("b", CAPEX, 0.031, 2));
    }

    @Test
    void shouldReadAFullTextSearchByItsText() {
        RetrieveDetail d = (RetrieveDetail) classified(post(MILVUS + "/v2/vectordb/entities/search",
                "{'collectionName':'kb','data':['operating cash flow 2023'],'annsField':'sparse','limit':1,"
                + "'searchParams':{'metricType':'BM25'},'outputFields':['text']}", 200,
                "{'code':0,'data':[{'pk':7,'distance':11.5,'text':'" + CASH + "'}]}")).detail();

        assertThat(d.queryText()).isEqualTo("operating cash flow 2023");
        assertThat(d.queryVector()).isNull();
        assertThat(d.passages()).containsExactly(new Passage("7", CASH, 11.5, 1));
    }

    @Test
    void shouldMakeAnL2DistanceAScoreByTheMetricTheSearchNames() {
        RetrieveDetail d = (RetrieveDetail) classified(post(MILVUS + "/v2/vectordb/entities/search",
                "{'collectionName':'kb','data':[[0.1,0.2]],'limit':2,'searchParams':{'metricType':'l2'}}", 200,
                "{'code':0,'data':[{'id':1,'distance':0.2,'text':'" + CASH + "'},"
                + "{'id':2,'distance':0.9,'text':'" + CAPEX + "'}]}")).detail();

        assertThat(d.passages()).extracting(Passage::score).satisfiesExactly(
                s -> assertThat(s).isCloseTo(0.8, within(1e-9)), s -> assertThat(s).isCloseTo(0.1, within(1e-9)));
    }

    @Test
    void shouldReadAnErrorAnsweredWithHttp200AsASearchThatReturnedNothing() {
        ClassifiedCall call = classified(post(MILVUS + "/v2/vectordb/entities/search",
                "{'collectionName':'kb','data':[[0.1,0.2]],'limit':3}", 200,
                "{'code':1100,'message':'collection not loaded'}"));

        assertThat(call.stage()).isEqualTo(Stage.RETRIEVE);
        assertThat(((RetrieveDetail) call.detail()).passages()).isEmpty();
    }

    @Test
    void shouldTeachTheKnownPassagesWhatAnInsertWrites() {
        ClassifiedCall insert = classified(post(MILVUS + "/v2/vectordb/entities/insert",
                "{'collectionName':'kb','data':[{'vector':[0.1,0.2],'text':'" + CASH + "'},"
                + "{'vector':[0.3,0.1],'text':'" + CAPEX + "'}]}", 200,
                "{'code':0,'data':{'insertCount':2,'insertIds':['1','2']}}"));

        assertThat(insert.detail()).isInstanceOfSatisfying(NotARunCall.class, n -> assertThat(n.buildsIndex()).isTrue());
        assertThat(IndexedPassages.read(insert).texts()).containsExactly(CASH, CAPEX);
        assertThat(classified(post(MILVUS + "/v2/vectordb/entities/query", "{'collectionName':'kb','filter':'id in"
                + " [1]'}", 200, "{'code':0,'data':[]}")).detail()).isInstanceOfSatisfying(NotARunCall.class,
                n -> assertThat(n.reason()).startsWith("lookup"));
        assertThat(classified(post(MILVUS + "/v2/vectordb/collections/describe", "{'collectionName':'kb'}", 200,
                "{'code':0,'data':{}}")).detail()).isInstanceOfSatisfying(NotARunCall.class,
                n -> assertThat(n.reason()).startsWith("collection or cluster admin"));
    }
}
