package io.raglog.cli.review;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import io.raglog.sink.elasticsearch.ElasticsearchConnection;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.ResponseException;
import org.elasticsearch.client.RestClient;

/**
 * JSON over Elasticsearch's REST API, through the same low-level client and connection settings the job's sink uses
 * (hosts, credentials, TLS). One client for the life of the review server or the export; thread-safe.
 */
final class ElasticsearchRest implements AutoCloseable {

    private final ElasticsearchConnection connection;
    private final RestClient client;

    ElasticsearchRest(ElasticsearchConnection connection) {
        this.connection = connection;
        this.client = connection.openClient();
    }

    static ElasticsearchRest at(String url) {
        return new ElasticsearchRest(ElasticsearchConnection.builder().setHosts(url).build());
    }

    /** The path of one document: run ids are ours, but a pipeline name inside one may hold anything. */
    static String document(String index, String id) {
        return "/" + index + "/_doc/" + URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * The reply's JSON, or null when Elasticsearch answers 404 (an index nobody has written to yet is an empty queue,
     * not an error).
     *
     * @throws UncheckedIOException for any other refusal or when Elasticsearch cannot be reached
     */
    JsonNode call(String method, String path, String jsonBody) {
        Request request = new Request(method, path);
        if (jsonBody != null) {
            request.setJsonEntity(jsonBody);
        }
        try {
            Response response = client.performRequest(request);
            try (InputStream in = response.getEntity().getContent()) {
                return Json.MAPPER.readTree(in);
            }
        } catch (ResponseException e) {
            if (e.getResponse().getStatusLine().getStatusCode() == 404) {
                return null;
            }
            throw new UncheckedIOException(method + " " + path + " on " + connection + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException(method + " " + path + " on " + connection + ": " + e, e);
        }
    }

    @Override
    public String toString() {
        return connection.toString();
    }

    @Override
    public void close() throws IOException {
        client.close();
    }
}
