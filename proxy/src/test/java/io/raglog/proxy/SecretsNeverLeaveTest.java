package io.raglog.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.proxy.FakeUpstream.Reply;
import io.raglog.proxy.record.RedactionRules;
import io.raglog.schemas.CallEvent;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * Every credential shape RAG stacks send, in headers, query strings, JSON and form bodies and replies, goes through the
 * proxy to the upstream untouched, and none of it, whole or in part, is in any byte the proxy wrote.
 */
class SecretsNeverLeaveTest {

    @TempDir
    Path dir;

    @Test
    void shouldForwardEveryCredentialButWriteNoneOfThem() throws Exception {
        try (FakeUpstream upstream = new FakeUpstream()
                .on("/oauth/token", Reply.json(200, "{\"access_token\":\"" + FakeSecrets.OAUTH_ACCESS_TOKEN
                        + "\",\"token_type\":\"bearer\",\"expires_in\":3600}",
                        "Set-Cookie", "session=" + FakeSecrets.COOKIE_SESSION + "; HttpOnly"))
                .on("/search", Reply.json(200, "{\"results\":[{\"title\":\"Contoso 2023 annual report\"}]}"))
                .on("/v1/messages", Reply.json(200, "{\"id\":\"msg_01\",\"type\":\"message\",\"content\":[]}"))) {
            Path file = dir.resolve("calls.jsonl");
            try (LoggingProxy proxy = LoggingProxy.start(ProxyConfig.builder()
                    .listenOnEphemeralPort()
                    .route(Route.prefix("/vendor", upstream.baseUri().toString()))
                    .sink(SinkSpec.file(file))
                    .redaction(RedactionRules.withAdditions(List.of(), List.of(), List.of("/auth/client_token")))
                    .build())) {
                HttpClient client = HttpClient.newHttpClient();
                List<String[]> credentialHeaders = List.of(
                        new String[] {"Authorization", "Bearer " + FakeSecrets.OPENAI_PROJECT},
                        new String[] {"Authorization", "Bearer " + FakeSecrets.OPENAI_LEGACY},
                        new String[] {"x-api-key", FakeSecrets.ANTHROPIC},
                        new String[] {"Authorization", "bearer " + FakeSecrets.COHERE},
                        new String[] {"Api-Key", FakeSecrets.PINECONE},
                        new String[] {"api-key", FakeSecrets.AZURE_OPENAI},
                        new String[] {"api-key", FakeSecrets.QDRANT},
                        new String[] {"Authorization", "Bearer " + FakeSecrets.VOYAGE},
                        new String[] {"Authorization", "Bearer " + FakeSecrets.JINA},
                        new String[] {"Authorization", "Bearer " + FakeSecrets.HUGGING_FACE},
                        new String[] {"X-Amz-Security-Token", FakeSecrets.AWS_SESSION},
                        new String[] {"Authorization", "Bearer " + FakeSecrets.JWT},
                        new String[] {"Cookie", "session=" + FakeSecrets.COOKIE_SESSION});
                for (String[] h : credentialHeaders) {
                    HttpResponse<String> r = client.send(HttpRequest.newBuilder(
                            proxy.baseUri().resolve("/vendor/v1/messages"))
                            .header("Content-Type", "application/json").header(h[0], h[1])
                            .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"claude-sonnet-4\"}")).build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertThat(r.statusCode()).isEqualTo(200);
                    assertThat(upstream.last().header(h[0])).as("%s reaches the vendor", h[0]).isEqualTo(h[1]);
                }
                String query = "/vendor/search?q=cash+flow&key=" + FakeSecrets.GOOGLE_QUERY_KEY
                        + "&api-key=" + FakeSecrets.AZURE_OPENAI + "&sig=" + URLEncoder.encode(FakeSecrets.AZURE_SAS_SIG,
                                StandardCharsets.UTF_8) + "&access_token=" + FakeSecrets.OAUTH_ACCESS_TOKEN;
                client.send(HttpRequest.newBuilder(proxy.baseUri().resolve(query)).GET().build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(upstream.last().pathAndQuery()).isEqualTo(query.substring("/vendor".length()));
                client.send(HttpRequest.newBuilder(proxy.baseUri().resolve("/vendor/search"))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"api_key\":\"" + FakeSecrets.TAVILY_BODY_KEY
                                + "\",\"query\":\"Contoso cash flow 2023\",\"auth\":{\"client_token\":\""
                                + FakeSecrets.CUSTOM_POINTER_SECRET + "\"},\"max_tokens\":512}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                client.send(HttpRequest.newBuilder(proxy.baseUri().resolve("/vendor/oauth/token"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString("grant_type=client_credentials&client_id=raglog"
                                + "&client_secret=" + FakeSecrets.CLIENT_SECRET)).build(),
                        HttpResponse.BodyHandlers.ofString());

                List<CallEvent> calls = new CallLog(file).awaitEvents(credentialHeaders.size() + 3);
                String written = new String(new CallLog(file).bytes(), StandardCharsets.UTF_8);
                assertThat(FakeSecrets.foundIn(written)).as("secrets in the call log").isEmpty();

                CallEvent search = calls.get(credentialHeaders.size());
                assertThat(search.request().url()).endsWith("/search?q=cash+flow&key=REDACTED&api-key=REDACTED"
                        + "&sig=REDACTED&access_token=REDACTED");
                CallEvent bodyKey = calls.get(credentialHeaders.size() + 1);
                assertThat(bodyKey.request().body().path("api_key").asText()).isEqualTo("REDACTED");
                assertThat(bodyKey.request().body().path("auth").path("client_token").asText()).isEqualTo("REDACTED");
                assertThat(bodyKey.request().body().path("max_tokens").asInt()).as("not a secret").isEqualTo(512);
                assertThat(bodyKey.request().body().path("query").asText()).isEqualTo("Contoso cash flow 2023");
                CallEvent oauth = calls.get(credentialHeaders.size() + 2);
                assertThat(oauth.request().body().textValue())
                        .isEqualTo("grant_type=client_credentials&client_id=raglog&client_secret=REDACTED");
                assertThat(oauth.response().body().path("access_token").asText()).isEqualTo("REDACTED");
                assertThat(oauth.response().headers()).containsEntry("set-cookie", "REDACTED");
                assertThat(calls.subList(0, credentialHeaders.size())).allSatisfy(c ->
                        assertThat(c.request().headers().entrySet()).filteredOn(e -> Set.of("authorization",
                                "x-api-key", "api-key", "x-amz-security-token", "cookie").contains(e.getKey()))
                                .isNotEmpty().allSatisfy(e -> assertThat(e.getValue()).isEqualTo("REDACTED")));
            }
        }
    }

    /**
     * On a route the proxy re-signs for AWS, the request upstream carries the proxy's own signature and session token:
     * the recording is of the request as the client sent it, redacted, so neither is ever written, nor logged.
     */
    @Test
    void shouldNeverWriteTheSignatureTheProxyMakesForAws() throws Exception {
        String invoke = "/model/amazon.titan-embed-text-v2%3A0/invoke";
        try (FakeUpstream upstream = new FakeUpstream()
                .on(invoke, Reply.json(200, "{\"embedding\":[0.12,-0.03],\"inputTextTokenCount\":4}"));
                LogCapture logs = new LogCapture()) {
            Path file = dir.resolve("signed-calls.jsonl");
            try (LoggingProxy proxy = LoggingProxy.start(ProxyConfig.builder()
                    .listenOnEphemeralPort()
                    .route(Route.prefix("/bedrock", upstream.baseUri().toString())
                            .signedWithAwsSigV4("bedrock", "us-east-1"))
                    .sink(SinkSpec.file(file))
                    .awsCredentials(StaticCredentialsProvider.create(AwsSessionCredentials.create("AKIDPROXYEXAMPLE",
                            FakeSecrets.AWS_PROXY_SECRET_KEY, FakeSecrets.AWS_PROXY_SESSION)))
                    .build())) {
                HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        proxy.baseUri().resolve("/bedrock" + invoke))
                        .header("Content-Type", "application/json")
                        .header("Authorization", "AWS4-HMAC-SHA256 Credential=AKIACLIENTEXAMPLE/20240101/us-east-1/"
                                + "bedrock/aws4_request, SignedHeaders=host;x-amz-date, Signature=" + "ab".repeat(32))
                        .header("X-Amz-Date", "20240101T000000Z")
                        .header("X-Amz-Security-Token", FakeSecrets.AWS_SESSION)
                        .POST(HttpRequest.BodyPublishers.ofString("{\"inputText\":\"Acme revenue\"}")).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).isEqualTo(200);
                String proxyAuthorization = upstream.last().header("Authorization");
                assertThat(proxyAuthorization).contains("Credential=AKIDPROXYEXAMPLE/");
                assertThat(upstream.last().header("X-Amz-Security-Token")).isEqualTo(FakeSecrets.AWS_PROXY_SESSION);
                String proxySignature = proxyAuthorization.substring(proxyAuthorization.indexOf("Signature="));

                CallEvent call = new CallLog(file).awaitEvents(1).get(0);
                assertThat(call.request().headers()).containsEntry("authorization", "REDACTED")
                        .containsEntry("x-amz-security-token", "REDACTED")
                        .containsEntry("x-amz-date", "20240101T000000Z");
                for (String written : List.of(new String(new CallLog(file).bytes(), StandardCharsets.UTF_8),
                        logs.text())) {
                    assertThat(FakeSecrets.foundIn(written)).isEmpty();
                    assertThat(written).doesNotContain(proxySignature, "AKIDPROXYEXAMPLE");
                }
            }
        }
    }
}
