package io.raglog.sink.elasticsearch;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** What a test asks the real node directly, over its HTTP port: counts, documents, mappings. */
final class NodeHttp {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final String url;

    NodeHttp(String url) {
        this.url = url;
    }

    /** Documents in {@code index} after a refresh; 0 when the index does not exist yet. */
    long count(String index) throws IOException, InterruptedException {
        HttpResponse<String> refresh = send("POST", "/" + index + "/_refresh", null);
        if (refresh.statusCode() == 404) {
            return 0;
        }
        return json("GET", "/" + index + "/_count", null).path("count").asLong();
    }

    JsonNode get(String index, String id) throws IOException, InterruptedException {
        return json("GET", "/" + index + "/_doc/" + id, null);
    }

    /** Every document of a small index with its {@code _version}. */
    JsonNode searchWithVersions(String index, int size) throws IOException, InterruptedException {
        send("POST", "/" + index + "/_refresh", null);
        return json("GET", "/" + index + "/_search?version=true&size=" + size, null);
    }

    JsonNode json(String method, String path, String body) throws IOException, InterruptedException {
        HttpResponse<String> reply = send(method, path, body);
        if (reply.statusCode() >= 300) {
            throw new IOException(method + " " + path + " -> " + reply.statusCode() + ": " + reply.body());
        }
        return Json.MAPPER.readTree(reply.body());
    }

    HttpResponse<String> send(String method, String path, String body) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url + path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/json");
        request.method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body));
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
