package io.raglog.calls.adapters;

import static io.raglog.calls.Calls.call;
import static io.raglog.calls.Calls.classified;
import static io.raglog.calls.Calls.json;
import static io.raglog.calls.Calls.post;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.calls.NotARunCall;
import io.raglog.calls.RetrieveDetail;
import io.raglog.schemas.Passage;
import org.junit.jupiter.api.Test;

/** Azure AI Search queried as the frameworks and SDKs query it, and the calls around a run that are not one. */
class AzureAiSearchAdapterTest {

    private static final String SERVICE = "https://acme.search.windows.net";
    private static final String REPLY = "{'value':[{'@search.score':0.03,'chunk_id':'c1','parent_id':'p1','chunk':"
            + "'Cash flow was $4.2 billion in 2023.','title':'10-K'},{'@search.score':0.02,'chunk_id':'c2',"
            + "'chunk':'Revenue grew 12% in 2022.','title':'10-K'}]}";

    @Test
    void shouldReadAVectorQueryTheServiceVectorizesAndTheWizardsChunkFields() {
        RetrieveDetail d = (RetrieveDetail) classified(post(SERVICE + "/indexes/acme-rag/docs/search?api-version="
                + "2024-07-01", "{'search':'*','vectorQueries':[{'kind':'text','text':'Acme cash flow 2023',"
                + "'fields':'text_vector','k':2}]}", 200, REPLY)).detail();

        assertThat(d.adapter()).isEqualTo("azure-ai-search");
        assertThat(d.collection()).isEqualTo("acme-rag");
        assertThat(d.queryText()).isEqualTo("Acme cash flow 2023");
        assertThat(d.queryVector()).isNull();
        assertThat(d.topK()).isEqualTo(2);
        assertThat(d.passages()).extracting(Passage::id).containsExactly("c1", "c2");
        assertThat(d.passages()).extracting(Passage::text).containsExactly("Cash flow was $4.2 billion in 2023.",
                "Revenue grew 12% in 2022.");
        assertThat(d.passages()).extracting(Passage::score).containsExactly(0.03, 0.02);
    }

    @Test
    void shouldReadASearchSentAsAGet() {
        RetrieveDetail d = (RetrieveDetail) classified(call("GET", SERVICE + "/indexes/acme-rag/docs?api-version="
                + "2024-07-01&search=Acme%20cash%20flow&$top=2", null, 200, json(REPLY))).detail();

        assertThat(d.queryText()).isEqualTo("Acme cash flow");
        assertThat(d.topK()).isEqualTo(2);
        assertThat(d.passages()).hasSize(2);
    }

    @Test
    void shouldCallUploadsIndexBuildingAndIndexListingsAdmin() {
        var upload = classified(post(SERVICE + "/indexes/acme-rag/docs/index?api-version=2024-07-01",
                "{'value':[{'@search.action':'upload','id':'c1','content':'Cash flow was $4.2 billion.'}]}", 200,
                "{'value':[{'key':'c1','status':true,'statusCode':201}]}"));
        var listing = classified(call("GET", SERVICE + "/indexes?api-version=2024-07-01", null, 200,
                json("{'value':[]}")));

        assertThat(((NotARunCall) upload.detail()).reason()).startsWith("index building");
        assertThat(((NotARunCall) listing.detail()).reason()).startsWith("index admin");
    }
}
