package io.raglog.cli.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import io.raglog.sink.elasticsearch.ElasticsearchConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.ResponseException;
import org.elasticsearch.client.RestClient;

/** What a scenario reads back from Elasticsearch: the documents of an index, as a search would see them. */
public final class Elastic {

    private static final int MAX_DOCUMENTS = 10_000;

    private final ElasticsearchConnection connection;

    public Elastic(ElasticsearchConnection connection) {
        this.connection = connection;
    }

    /** Document ids in an index after a refresh; empty when the index does not exist. */
    public List<String> ids(String index) {
        List<String> ids = new ArrayList<>();
        for (JsonNode hit : hits(index)) {
            ids.add(hit.path("_id").asText());
        }
        return ids;
    }

    /** Every document of an index as JSON text. */
    public List<String> documents(String index) {
        List<String> docs = new ArrayList<>();
        for (JsonNode hit : hits(index)) {
            docs.add(Json.write(hit.path("_source")));
        }
        return docs;
    }

    /** Every index on the node, raglog's and any other, hidden system ones aside. */
    public List<String> indices() {
        try (RestClient client = connection.openClient()) {
            JsonNode list = Json.MAPPER.readTree(client.performRequest(
                    new Request("GET", "/_cat/indices?format=json&h=index")).getEntity().getContent());
            List<String> names = new ArrayList<>();
            list.forEach(i -> names.add(i.path("index").asText()));
            return names;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private JsonNode hits(String index) {
        try (RestClient client = connection.openClient()) {
            client.performRequest(new Request("POST", "/" + index + "/_refresh"));
            Request search = new Request("GET", "/" + index + "/_search");
            search.addParameter("size", String.valueOf(MAX_DOCUMENTS));
            search.setJsonEntity("{\"query\":{\"match_all\":{}}}");
            JsonNode reply = Json.MAPPER.readTree(client.performRequest(search).getEntity().getContent());
            return reply.path("hits").path("hits");
        } catch (ResponseException e) {
            if (e.getResponse().getStatusLine().getStatusCode() == 404) {
                return Json.MAPPER.createArrayNode();
            }
            throw new UncheckedIOException(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
