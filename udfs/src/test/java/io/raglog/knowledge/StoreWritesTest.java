package io.raglog.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.raglog.schemas.Json;
import org.junit.jupiter.api.Test;

/** Each store's write shape gives the texts its records carry, and a write that carries none gives nothing. */
class StoreWritesTest {

    private static final String CASH = "Net cash provided by operating activities was $4.2 billion in fiscal 2023.";
    private static final String CAPEX = "Capital expenditures were $386 million in fiscal 2023, mostly for stores.";

    @Test
    void shouldReadTheRecordsOfEachStoresWriteWhereTheirTextSits() throws Exception {
        assertThat(StoreWrites.texts(json("{\"vectors\": [{\"id\": \"a\", \"values\": [0.1, 0.2], \"metadata\":"
                + " {\"text\": \"" + CASH + "\", \"source\": \"10-K\"}}], \"namespace\": \"acme\"}")))
                .as("Pinecone upsert, LangChain's text key").containsExactly(CASH);
        assertThat(StoreWrites.texts(json("{\"points\": [{\"id\": 1, \"vector\": [0.1], \"payload\": {\"page_content\":"
                + " \"" + CASH + "\", \"metadata\": {}}}, {\"id\": 2, \"vector\": [0.2], \"payload\": {\"page_content\": \""
                + CAPEX + "\"}}]}"))).as("Qdrant points").containsExactly(CASH, CAPEX);
        assertThat(StoreWrites.texts(json("{\"batch\": {\"ids\": [1], \"vectors\": [[0.1]], \"payloads\":"
                + " [{\"text\": \"" + CASH + "\"}]}}"))).as("Qdrant's column-wise batch").containsExactly(CASH);
        assertThat(StoreWrites.texts(json("{\"objects\": [{\"class\": \"Doc\", \"properties\": {\"text\": \"" + CASH
                + "\"}}]}"))).as("Weaviate batch, vectorised by Weaviate").containsExactly(CASH);
        assertThat(StoreWrites.texts(json("{\"ids\": [\"a\", \"b\"], \"documents\": [\"" + CASH + "\", \"" + CAPEX
                + "\"], \"embeddings\": [[0.1], [0.2]]}"))).as("Chroma add").containsExactly(CASH, CAPEX);
        assertThat(StoreWrites.texts(json("[{\"id\": \"a\", \"data\": \"" + CASH + "\", \"metadata\": {}}]")))
                .as("Upstash upsert-data").containsExactly(CASH);
        assertThat(StoreWrites.texts(json("{\"upsert_rows\": [{\"id\": 1, \"vector\": [0.1], \"text\": \"" + CAPEX
                + "\"}], \"distance_metric\": \"cosine_distance\"}"))).as("turbopuffer v2").containsExactly(CAPEX);
        assertThat(StoreWrites.texts(json("{\"value\": [{\"@search.action\": \"upload\", \"id\": \"1\", \"content\": \""
                + CASH + "\"}]}"))).as("Azure AI Search upload").containsExactly(CASH);
        assertThat(StoreWrites.texts(json("[{\"content\": \"" + CASH + "\", \"embedding\": [0.1]}]")))
                .as("Supabase rows through PostgREST").containsExactly(CASH);
        assertThat(StoreWrites.texts(json("{\"class\": \"Doc\", \"properties\": {\"text\": \"" + CAPEX + "\"}}")))
                .as("one Weaviate object").containsExactly(CAPEX);
    }

    @Test
    void shouldReadJsonLinesLessElasticsearchsActionLines() {
        JsonNode bulk = TextNode.valueOf("{\"index\": {\"_index\": \"kb\", \"_id\": \"1\"}}\n{\"text\": \"" + CASH
                + "\", \"embedding\": [0.1]}\n{\"delete\": {\"_index\": \"kb\", \"_id\": \"7\"}}\n");
        assertThat(StoreWrites.texts(bulk)).as("Elasticsearch _bulk").containsExactly(CASH);

        JsonNode records = TextNode.valueOf("{\"_id\": \"r1\", \"chunk_text\": \"" + CAPEX + "\", \"category\": \"fin\"}\n");
        assertThat(StoreWrites.texts(records)).as("Pinecone's integrated records").containsExactly(CAPEX);
    }

    @Test
    void shouldLearnNothingFromDeletesIdsOrABodyThatIsNotJson() throws Exception {
        assertThat(StoreWrites.texts(json("[\"doc-1\", \"doc-2\"]"))).as("Upstash delete: ids").isEmpty();
        assertThat(StoreWrites.texts(json("{\"points\": [1, 2, 3]}"))).as("Qdrant delete").isEmpty();
        assertThat(StoreWrites.texts(json("{\"ids\": [\"a\"], \"namespace\": \"acme\"}"))).as("Pinecone delete").isEmpty();
        assertThat(StoreWrites.texts(TextNode.valueOf("{\"index\": {\"_id\": \"1\"}}\n{\"text\": \"cut sho")))
                .as("a cut body").isEmpty();
        assertThat(StoreWrites.texts(null)).isEmpty();
    }

    private static JsonNode json(String text) throws Exception {
        return Json.MAPPER.readTree(text);
    }
}
