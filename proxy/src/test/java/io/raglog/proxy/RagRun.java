package io.raglog.proxy;

import io.raglog.proxy.FakeUpstream.Reply;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * One question's run as a LangChain-style pipeline makes it, through the proxy: rewrite (OpenAI chat), embed (OpenAI
 * embeddings), retrieve (Qdrant), rerank (Cohere v2), generate (OpenAI chat, streamed), each with its vendor's
 * credential header.
 */
final class RagRun {

    static final List<String> PATHS = List.of("/openai/v1/chat/completions", "/openai/v1/embeddings",
            "/qdrant/collections/reports/points/search", "/cohere/v2/rerank", "/openai/v1/chat/completions");

    private RagRun() {}

    static FakeUpstream upstream() throws IOException {
        return new FakeUpstream()
                .on("/v1/chat/completions", r -> new String(r.body(), StandardCharsets.UTF_8).contains("\"stream\":true")
                        ? Reply.eventStream(Wire.generateStream(), null)
                        : Reply.json(200, Wire.rewriteResponse(), "x-request-id", "req_rewrite"))
                .on("/v1/embeddings", Reply.json(200, Wire.embeddingsResponse()))
                .on("/collections/reports/points/search", Reply.json(200, Wire.qdrantSearchResponse()))
                .on("/v2/rerank", Reply.json(200, Wire.cohereRerankResponse()));
    }

    /** Sends the five calls in order, each with {@code hint} headers; fails unless every reply is the upstream's. */
    static void send(HttpClient client, URI proxy, Map<String, String> hint) throws IOException, InterruptedException {
        call(client, proxy, PATHS.get(0), Wire.rewriteRequest(), hint, "Authorization",
                "Bearer " + FakeSecrets.OPENAI_PROJECT, Wire.rewriteResponse());
        call(client, proxy, PATHS.get(1), Wire.embeddingsRequest(), hint, "Authorization",
                "Bearer " + FakeSecrets.OPENAI_PROJECT, Wire.embeddingsResponse());
        call(client, proxy, PATHS.get(2), Wire.qdrantSearchRequest(), hint, "api-key", FakeSecrets.QDRANT,
                Wire.qdrantSearchResponse());
        call(client, proxy, PATHS.get(3), Wire.cohereRerankRequest(), hint, "Authorization",
                "bearer " + FakeSecrets.COHERE, Wire.cohereRerankResponse());
        call(client, proxy, PATHS.get(4), Wire.generateRequest(), hint, "Authorization",
                "Bearer " + FakeSecrets.OPENAI_PROJECT, String.join("", Wire.generateStream()));
    }

    private static void call(HttpClient client, URI proxy, String path, String body, Map<String, String> hint,
            String credentialHeader, String credential, String expectedReply) throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(proxy.resolve(path))
                .header("Content-Type", "application/json")
                .header(credentialHeader, credential)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        hint.forEach(request::header);
        HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200 || !response.body().equals(expectedReply)) {
            throw new AssertionError(path + " answered " + response.statusCode() + ": " + response.body());
        }
    }
}
