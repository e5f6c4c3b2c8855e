package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.call;
import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.json;
import static io.raglog.calls.Calls.post;
import static io.raglog.calls.Calls.unreadableReason;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.RerankDetail;
import io.raglog.calls.RerankDetail.RerankResult;
import io.raglog.calls.RetrieveDetail;
import io.raglog.schemas.Passage;
import io.raglog.schemas.Stage;
import org.junit.jupiter.api.Test;

/** Google's managed retrieval and ranking: Vertex AI's ranking API, RAG Engine and Vertex AI Search. */
class VertexRetrievalAdaptersTest {

    private static final String RANK = "https://discoveryengine.googleapis.com/v1/projects/acme/locations/global/"
            + "rankingConfigs/default_ranking_config:rank";
    private static final String RAG = "https://us-central1-aiplatform.googleapis.com/v1beta1/projects/acme/locations/"
            + "us-central1";
    private static final String ENGINE = "https://discoveryengine.googleapis.com/v1/projects/acme/locations/global/"
            + "collections/default_collection/engines/acme-app";
    private static final String DATA_STORE = "https://discoveryengine.googleapis.com/v1/projects/acme/locations/"
            + "global/collections/default_collection/dataStores/acme-docs";
    private static final String CASH = "Cash flow was $4.2 billion in 2023.";
    private static final String REVENUE = "Revenue grew 12% in 2022.";
    private static final String CAPEX = "Capital expenditures were $1.1 billion.";

    @Test
    void shouldReadARankingByTheIdsTheRecordsWereSentWithWhetherOrNotTheirDetailsCameBack() {
        String request = "{'model':'semantic-ranker-fast-004','query':'Acme cash flow 2023','records':["
                + "{'id':'a','title':'10-K','content':'" + REVENUE + "'},{'id':'b','content':'" + CASH + "'},"
                + "{'id':'c','title':'" + CAPEX + "'}],'topN':2,'ignoreRecordDetailsInResponse':true}";
        ClassifiedCall call = classified(post(RANK, request, 200,
                "{'records':[{'id':'b','score':0.93},{'id':'c','score':0.4}]}"));

        assertThat(call.stage()).isEqualTo(Stage.RERANK);
        RerankDetail d = (RerankDetail) call.detail();
        assertThat(d.adapter()).isEqualTo("vertex.rank");
        assertThat(d.model()).isEqualTo("semantic-ranker-fast-004");
        assertThat(d.query()).isEqualTo("Acme cash flow 2023");
        assertThat(d.documents()).containsExactly(REVENUE, CASH, CAPEX); // a record with a title alone: its title
        assertThat(d.results()).containsExactly(new RerankResult(1, 0.93), new RerankResult(2, 0.4));
        assertThat(d.topN()).isEqualTo(2);
    }

    @Test
    void shouldReadARankingThatKeptNothingOrFailedAsOneWithoutResultsAndRefuseAnIdNeverSent() {
        String request = "{'query':'Acme cash flow 2023','records':[{'id':'a','content':'" + CASH + "'}]}";
        RerankDetail none = (RerankDetail) classified(post(RANK, request, 200, "{}")).detail();
        RerankDetail failed = (RerankDetail) classified(post(RANK, request, 429,
                "{'error':{'code':429,'status':'RESOURCE_EXHAUSTED'}}")).detail();

        assertThat(none.results()).isEmpty();
        assertThat(failed.results()).isEmpty();
        assertThat(failed.documents()).containsExactly(CASH);
        assertThat(unreadableReason(post(RANK, request, 200, "{'records':[{'id':'z','score':0.5}]}")))
                .isEqualTo("vertex.rank: records[0].id z is outside the 1 documents sent");
    }

    @Test
    void shouldReadARagEngineRetrievalInEitherSpellingWithTheServicesOwnQueryAndNoEmbedding() {
        String reply = "{'contexts':{'contexts':[{'sourceUri':'gs://acme/10k.pdf','sourceDisplayName':'10k.pdf',"
                + "'text':'" + CASH + "','score':0.21},{'sourceUri':'gs://acme/10k.pdf','chunk':{'text':'" + REVENUE
                + "'},'distance':0.3}]}}";
        RetrieveDetail snake = (RetrieveDetail) classified(post(RAG + ":retrieveContexts", "{'vertex_rag_store':"
                + "{'rag_resources':[{'rag_corpus':'projects/acme/locations/us-central1/ragCorpora/123'}]},"
                + "'query':{'text':'Acme cash flow 2023','rag_retrieval_config':{'top_k':2}}}", 200, reply)).detail();
        RetrieveDetail camel = (RetrieveDetail) classified(post(RAG + ":retrieveContexts", "{'vertexRagStore':"
                + "{'ragResources':[{'ragCorpus':'projects/acme/locations/us-central1/ragCorpora/123'},{'ragCorpus':"
                + "'projects/acme/locations/us-central1/ragCorpora/456'}]},'query':{'text':'Acme cash flow 2023',"
                + "'similarityTopK':2}}", 200, reply)).detail();

        assertThat(snake.adapter()).isEqualTo("vertex.rag-engine");
        assertThat(snake.store()).isEqualTo("vertex-rag-engine");
        assertThat(snake.collection()).isEqualTo("123");
        assertThat(snake.queryText()).isEqualTo("Acme cash flow 2023");
        assertThat(snake.queryVector()).isNull();
        assertThat(snake.topK()).isEqualTo(2);
        assertThat(snake.passages()).extracting(Passage::text).containsExactly(CASH, REVENUE);
        // one file holds both chunks: each is named by its text, as it is wherever it turns up again
        assertThat(snake.passages()).extracting(Passage::id)
                .containsExactly(Passages.contentId(CASH), Passages.contentId(REVENUE));
        assertThat(snake.passages()).extracting(Passage::score).containsExactly(0.21, 0.7);
        assertThat(camel.collection()).isEqualTo("123,456");
        assertThat(camel.topK()).isEqualTo(2);
        assertThat(camel.passages()).isEqualTo(snake.passages());
    }

    @Test
    void shouldReadARagEngineRetrievalThatFoundNothingAndCallBuildingTheCorpusNotARun() {
        String corpus = RAG + "/ragCorpora/123";
        RetrieveDetail none = (RetrieveDetail) classified(post(RAG + ":retrieveContexts",
                "{'query':{'text':'Acme cash flow 2023'}}", 200, "{'contexts':{}}")).detail();
        NotARunCall upload = (NotARunCall) classified(post("https://us-central1-aiplatform.googleapis.com/upload/"
                + "v1beta1/projects/acme/locations/us-central1/ragCorpora/123/ragFiles:upload", "{}", 200,
                "{'ragFile':{'name':'f1'}}")).detail();
        NotARunCall created = (NotARunCall) classified(post(RAG + "/ragCorpora", "{'displayName':'acme'}", 200,
                "{'name':'op'}")).detail();
        NotARunCall listed = (NotARunCall) classified(call("GET", corpus + "/ragFiles", null, 200,
                json("{'ragFiles':[]}"))).detail();

        assertThat(none.passages()).isEmpty();
        assertThat(none.collection()).isNull();
        assertThat(upload.reason()).startsWith("index building: files uploaded to a RAG corpus");
        assertThat(created.reason()).startsWith("index building: a RAG corpus created");
        assertThat(listed.reason()).startsWith("RAG corpus admin (GET");
    }

    @Test
    void shouldReadASearchsDocumentsAsTheTextThePipelineGotBackOfEach() {
        String reply = "{'results':[{'id':'d1','document':{'id':'d1','derivedStructData':{'link':'gs://acme/10k.pdf',"
                + "'extractive_segments':[{'content':'" + CASH + "','relevanceScore':0.8},{'content':'" + CAPEX
                + "'}],'snippets':[{'snippet':'x','snippet_status':'SUCCESS'}]}},'modelScores':{'relevance_score':"
                + "{'values':[0.92]}}},{'id':'d2','document':{'id':'d2','derivedStructData':{'extractive_answers':"
                + "[{'content':'" + REVENUE + "'}]}}},{'id':'d3','document':{'id':'d3','derivedStructData':{"
                + "'snippets':[{'snippet':'<b>Capital</b> expenditures were $1.1 <b>billion</b>.','snippet_status':"
                + "'SUCCESS'}]}}},{'id':'d4','document':{'id':'d4','derivedStructData':{'snippets':[{'snippet':"
                + "'No snippet is available for this page.','snippet_status':'NO_SNIPPET_AVAILABLE'}]},'structData':"
                + "{'title':'FY23','body':'" + CASH + "'}}}],'totalSize':4}";
        ClassifiedCall call = classified(post(ENGINE + "/servingConfigs/default_search:search",
                "{'query':'Acme cash flow 2023','page_size':4}", 200, reply));

        assertThat(call.stage()).isEqualTo(Stage.RETRIEVE);
        RetrieveDetail d = (RetrieveDetail) call.detail();
        assertThat(d.adapter()).isEqualTo("vertex.search");
        assertThat(d.store()).isEqualTo("vertex-ai-search");
        assertThat(d.collection()).isEqualTo("acme-app");
        assertThat(d.queryText()).isEqualTo("Acme cash flow 2023");
        assertThat(d.topK()).isEqualTo(4);
        assertThat(d.passages()).extracting(Passage::text)
                .containsExactly(CASH + "\n" + CAPEX, REVENUE, CAPEX, CASH);
        assertThat(d.passages()).extracting(Passage::id).containsExactly("d1", "d2", "d3", "d4");
        assertThat(d.passages()).extracting(Passage::score).containsExactly(0.92, null, null, null);
    }

    @Test
    void shouldReadASearchOfChunksAndOneThatFoundNothing() {
        RetrieveDetail chunks = (RetrieveDetail) classified(post(DATA_STORE + "/servingConfigs/default_search:search",
                "{'query':'Acme cash flow 2023','pageSize':2,'contentSearchSpec':{'searchResultMode':'CHUNKS'}}", 200,
                "{'results':[{'chunk':{'name':'projects/acme/locations/global/collections/default_collection/"
                        + "dataStores/acme-docs/branches/0/documents/d1/chunks/c7','content':'" + CASH + "',"
                        + "'relevanceScore':0.77,'documentMetadata':{'uri':'gs://acme/10k.pdf','title':'10-K'}}}]}"))
                .detail();
        RetrieveDetail none = (RetrieveDetail) classified(post(DATA_STORE + "/servingConfigs/default_search:search",
                "{'query':'Acme cash flow 1923'}", 200, "{'totalSize':0,'attributionToken':'t'}")).detail();

        assertThat(chunks.collection()).isEqualTo("acme-docs");
        assertThat(chunks.passages()).containsExactly(new Passage("c7", CASH, 0.77, 1));
        assertThat(none.passages()).isEmpty();
    }

    @Test
    void shouldLeaveTheRetailApisProductSearchToOthers() {
        assertThat(new VertexAiSearchAdapter().accepts(post("https://retail.googleapis.com/v2/projects/acme/locations/"
                + "global/catalogs/default_catalog/servingConfigs/default_search:search", "{'query':'shoes',"
                + "'visitorId':'v1'}", 200, "{'results':[{'id':'p1'}]}"))).isFalse();
    }

    @Test
    void shouldCallDocumentsWrittenOrPurgedAndUserEventsNotARun() {
        String documents = DATA_STORE + "/branches/default_branch/documents";
        NotARunCall imported = (NotARunCall) classified(post(documents + ":import", "{'gcsSource':{'inputUris':"
                + "['gs://acme/*.pdf']}}", 200, "{'name':'op'}")).detail();
        NotARunCall purged = (NotARunCall) classified(post(documents + ":purge", "{'filter':'*','force':true}", 200,
                "{'name':'op'}")).detail();
        NotARunCall events = (NotARunCall) classified(post(DATA_STORE + "/userEvents:write", "{'eventType':"
                + "'search','userPseudoId':'u1'}", 200, "{'eventType':'search'}")).detail();

        assertThat(imported.adapter()).isEqualTo("vertex.search");
        assertThat(imported.reason()).startsWith("index building: documents written to a data store");
        assertThat(purged.reason()).startsWith("index admin: documents deleted");
        assertThat(events.reason()).startsWith("user events recorded");
    }
}
