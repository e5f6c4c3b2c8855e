package io.raglog.proxy;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.proxy.FakeUpstream.Reply;
import io.raglog.proxy.record.CallEventFactory;
import io.raglog.proxy.record.EventStreamFrames;
import io.raglog.schemas.CallEvent;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.HttpSigner;

/**
 * A route the proxy re-signs for AWS, through the real proxy to a local upstream: the client's own signature (made for
 * the proxy's host and path, so wrong upstream) is replaced by the proxy's, made with its own credentials for the
 * request exactly as the upstream receives it, which the upstream here checks by signing what it received again.
 */
class AwsSigV4RouteTest {

    static final String KEY_ID = "AKIDPROXYEXAMPLE";
    static final String SECRET_KEY = FakeSecrets.AWS_PROXY_SECRET_KEY;
    static final String SESSION_TOKEN = FakeSecrets.AWS_PROXY_SESSION;
    static final AwsSessionCredentials PROXY_CREDENTIALS = AwsSessionCredentials.create(KEY_ID, SECRET_KEY,
            SESSION_TOKEN);
    static final int SIGNED_BODY_CAP = 1024;
    static final String CLIENT_AUTHORIZATION = "AWS4-HMAC-SHA256 Credential=AKIACLIENTEXAMPLE/20240101/us-east-1/"
            + "bedrock/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=" + "0f".repeat(32);
    static final String CLIENT_DATE = "20240101T000000Z";
    static final String RETRIEVE = "{\"retrievalQuery\":{\"text\":\"Acme 2023 revenue\"},"
            + "\"retrievalConfiguration\":{\"vectorSearchConfiguration\":{\"numberOfResults\":5}}}";
    static final String RETRIEVED = "{\"retrievalResults\":[{\"content\":{\"text\":\"Acme's 2023 revenue was"
            + " $12M.\"},\"score\":0.82}]}";
    static final List<byte[]> FRAMES = List.of(
            EventStreamFrames.event("messageStart", "{\"role\":\"assistant\"}"),
            EventStreamFrames.event("contentBlockDelta", "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"$12M\"}}"),
            EventStreamFrames.event("messageStop", "{\"stopReason\":\"end_turn\"}"));

    @TempDir
    static Path dir;

    static FakeUpstream upstream;
    static LoggingProxy proxy;
    static CallLog log;
    static LogCapture logs;
    static HttpClient jdk;
    static volatile CountDownLatch streamGate;

    @BeforeAll
    static void start() throws IOException {
        logs = new LogCapture();
        upstream = new FakeUpstream()
                .on("/knowledgebases/KB1/retrieve", Reply.json(200, RETRIEVED, "x-amzn-RequestId", "req_kb"))
                .on("/model/amazon.nova-lite-v1%3A0/converse-stream", r -> new Reply(200,
                        List.<String[]>of(new String[] {"Content-Type", "application/vnd.amazon.eventstream"}),
                        FRAMES, true, streamGate));
        String base = upstream.baseUri().toString();
        proxy = LoggingProxy.start(ProxyConfig.builder()
                .listenOnEphemeralPort()
                // 127.0.0.1 names no region: given, as for a VPC endpoint
                .route(Route.prefix("/bedrock-agent", base).signedWithAwsSigV4("bedrock", "us-east-1"))
                .route(Route.prefix("/bedrock", base).signedWithAwsSigV4("bedrock", "us-east-1"))
                .route(Route.prefix("/plain", base))
                .sink(SinkSpec.file(dir.resolve("calls.jsonl")))
                .maxSignedBodyBytes(SIGNED_BODY_CAP)
                .awsCredentials(StaticCredentialsProvider.create(PROXY_CREDENTIALS))
                .build());
        log = new CallLog(dir.resolve("calls.jsonl"));
        jdk = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .build();
    }

    @AfterAll
    static void stop() {
        proxy.close();
        upstream.close();
        logs.close();
    }

    private static HttpRequest.Builder clientSigned(String path) {
        return HttpRequest.newBuilder(proxy.baseUri().resolve(path))
                .header("Content-Type", "application/json")
                .header("Authorization", CLIENT_AUTHORIZATION)
                .header("X-Amz-Date", CLIENT_DATE)
                .header("X-Amz-Security-Token", FakeSecrets.AWS_SESSION)
                .header("X-Amz-Content-Sha256", "UNSIGNED-PAYLOAD");
    }

    private static FakeUpstream.Received receivedWithBody(String body) {
        return upstream.received().stream()
                .filter(r -> new String(r.body(), StandardCharsets.UTF_8).equals(body)).findFirst().orElseThrow();
    }

    @Test
    void shouldReplaceTheClientsSignatureWithOneTheUpstreamVerifies() throws Exception {
        HttpResponse<String> response = jdk.send(clientSigned("/bedrock-agent/knowledgebases/KB1/retrieve")
                .POST(HttpRequest.BodyPublishers.ofString(RETRIEVE)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(RETRIEVED);
        assertThat(response.headers().firstValue("x-amzn-RequestId")).contains("req_kb");

        FakeUpstream.Received sent = receivedWithBody(RETRIEVE);
        assertThat(sent.pathAndQuery()).isEqualTo("/knowledgebases/KB1/retrieve");
        assertThat(sent.header("Host")).isEqualTo("127.0.0.1:" + upstream.port());
        assertThat(sent.header("Content-Type")).isEqualTo("application/json");
        String date = sent.header("X-Amz-Date");
        assertThat(date).isNotEqualTo(CLIENT_DATE).matches("\\d{8}T\\d{6}Z");
        assertThat(sent.header("Authorization"))
                .startsWith("AWS4-HMAC-SHA256 Credential=" + KEY_ID + "/" + date.substring(0, 8)
                        + "/us-east-1/bedrock/aws4_request, SignedHeaders=")
                .contains("host").doesNotContain("AKIACLIENTEXAMPLE");
        assertThat(sent.headers().get("Authorization")).as("one signature, the proxy's").hasSize(1);
        assertThat(sent.header("X-Amz-Security-Token")).isEqualTo(SESSION_TOKEN);
        assertThat(sent.header("X-Amz-Content-Sha256")).isEqualTo(sha256(RETRIEVE));
        assertThat(signedHeaders(sent)).contains("host", "content-type", "content-length", "x-amz-date",
                "x-amz-security-token", "x-amz-content-sha256");
        assertThat(sent.header("Authorization")).as("the signature verifies for the request the upstream received")
                .isEqualTo(signedAgain(sent));
    }

    @Test
    void shouldRecordTheRequestAsTheClientSentItWithoutTheProxysSignature() throws Exception {
        String body = "{\"retrievalQuery\":{\"text\":\"who audits Acme\"}}";
        jdk.send(clientSigned("/bedrock-agent/knowledgebases/KB1/retrieve")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        String proxySignature = signature(receivedWithBody(body));

        Predicate<CallEvent> thisCall = c -> c.request().body() != null
                && c.request().body().toString().equals(body);
        Eventually.await("the retrieve call's recording", Duration.ofSeconds(15),
                () -> log.awaitEvents(0).stream().anyMatch(thisCall));
        CallEvent call = log.awaitEvents(0).stream().filter(thisCall).findFirst().orElseThrow();
        assertThat(call.request().url()).isEqualTo(upstream.baseUri() + "/knowledgebases/KB1/retrieve");
        assertThat(call.request().headers())
                .containsEntry("authorization", "REDACTED")
                .containsEntry("x-amz-security-token", "REDACTED")
                .containsEntry("x-amz-date", CLIENT_DATE)
                .containsEntry("x-amz-content-sha256", "UNSIGNED-PAYLOAD");
        assertThat(call.response().status()).isEqualTo(200);

        String written = new String(log.bytes(), StandardCharsets.UTF_8);
        assertThat(written).doesNotContain(proxySignature, SESSION_TOKEN, SECRET_KEY, KEY_ID);
        assertThat(FakeSecrets.foundIn(written)).isEmpty();
        assertThat(logs.text()).doesNotContain(proxySignature, SESSION_TOKEN, SECRET_KEY, FakeSecrets.AWS_SESSION);
    }

    @Test
    void shouldStreamABedrockEventStreamBackAsItArrives() throws Exception {
        CountDownLatch firstFrameSeen = new CountDownLatch(1);
        streamGate = firstFrameSeen; // the upstream holds the last frame back until the client has the first
        HttpResponse<InputStream> response = jdk.send(clientSigned("/bedrock/model/amazon.nova-lite-v1%3A0/"
                + "converse-stream").POST(HttpRequest.BodyPublishers.ofString(
                        "{\"messages\":[{\"role\":\"user\",\"content\":[{\"text\":\"Acme revenue?\"}]}]}")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        try (InputStream in = response.body()) {
            byte[] first = CompletableFuture.supplyAsync(() -> {
                try {
                    return in.readNBytes(FRAMES.get(0).length);
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }).get(10, TimeUnit.SECONDS);
            assertThat(first).isEqualTo(FRAMES.get(0));
            firstFrameSeen.countDown();
            assertThat(in.readAllBytes()).isEqualTo(EventStreamFrames.stream(FRAMES.get(1), FRAMES.get(2)));
        } finally {
            streamGate = null;
        }
        assertThat(response.headers().firstValue("content-type")).contains("application/vnd.amazon.eventstream");
        FakeUpstream.Received sent = upstream.received().stream()
                .filter(r -> r.pathAndQuery().endsWith("/converse-stream")).findFirst().orElseThrow();
        assertThat(sent.pathAndQuery()).as("the path as the client encoded it")
                .isEqualTo("/model/amazon.nova-lite-v1%3A0/converse-stream");
        assertThat(sent.header("Authorization")).isEqualTo(signedAgain(sent));
    }

    @Test
    void shouldPassAnUnsignedRoutesHeadersAsToday() throws Exception {
        String body = "{\"retrievalQuery\":{\"text\":\"unsigned\"}}";
        HttpResponse<String> response = jdk.send(clientSigned("/plain/knowledgebases/KB1/retrieve")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        FakeUpstream.Received sent = receivedWithBody(body);
        assertThat(sent.header("Authorization")).isEqualTo(CLIENT_AUTHORIZATION);
        assertThat(sent.header("X-Amz-Date")).isEqualTo(CLIENT_DATE);
        assertThat(sent.header("X-Amz-Security-Token")).isEqualTo(FakeSecrets.AWS_SESSION);
        assertThat(sent.header("X-Amz-Content-Sha256")).isEqualTo("UNSIGNED-PAYLOAD");
    }

    @Test
    void shouldRefuseABodyOverTheCapWith413AndSendNothingUpstream() throws Exception {
        long before = proxy.metrics().snapshot().tooLarge();
        String big = "{\"retrievalQuery\":{\"text\":\"" + "x".repeat(4 * SIGNED_BODY_CAP) + "\"}}";

        HttpResponse<String> declared = jdk.send(clientSigned("/bedrock-agent/knowledgebases/KB1/retrieve")
                .POST(HttpRequest.BodyPublishers.ofString(big)).build(), HttpResponse.BodyHandlers.ofString());
        // no Content-Length: the cap is met while the body streams in
        HttpResponse<String> chunked = jdk.send(clientSigned("/bedrock-agent/knowledgebases/KB1/retrieve")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(
                        big.getBytes(StandardCharsets.UTF_8)))).build(), HttpResponse.BodyHandlers.ofString());

        for (HttpResponse<String> r : List.of(declared, chunked)) {
            assertThat(r.statusCode()).isEqualTo(413);
            assertThat(r.headers().firstValue("content-type")).contains("text/plain; charset=utf-8");
            assertThat(r.body()).contains("over the " + SIGNED_BODY_CAP + " bytes a request signed for AWS may have");
        }
        assertThat(upstream.received()).noneMatch(r -> r.body().length > SIGNED_BODY_CAP);
        assertThat(proxy.metrics().snapshot().tooLarge()).isEqualTo(before + 2);

        Eventually.await("the refused calls' recordings", Duration.ofSeconds(15),
                () -> log.awaitEvents(0).stream().filter(c -> c.response().status() == 413).count() >= 2);
        assertThat(log.awaitEvents(0)).filteredOn(c -> c.response().status() == 413).allSatisfy(c -> {
            assertThat(c.failed()).isTrue();
            assertThat(c.response().headers()).containsEntry(CallEventFactory.INCOMPLETE_HEADER,
                    "request body over the signing cap");
        });

        HttpResponse<String> after = jdk.send(clientSigned("/bedrock-agent/knowledgebases/KB1/retrieve")
                .POST(HttpRequest.BodyPublishers.ofString(RETRIEVE)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(after.statusCode()).as("the connection still serves the next call").isEqualTo(200);
    }

    @Test
    void shouldAnswer502WithAClearReasonWhenTheProxyHasNoCredentials() throws Exception {
        Path file = dir.resolve("no-credentials.jsonl");
        int before = upstream.received().size();
        try (LogCapture captured = new LogCapture();
                LoggingProxy bare = LoggingProxy.start(ProxyConfig.builder()
                        .listenOnEphemeralPort()
                        .route(Route.prefix("/bedrock-agent", upstream.baseUri().toString())
                                .signedWithAwsSigV4("bedrock", "us-east-1"))
                        .sink(SinkSpec.file(file))
                        .awsCredentials(() -> {
                            throw SdkClientException.create("Unable to load credentials from any of the providers"
                                    + " in the chain: environment variables, system properties, profile file,"
                                    + " web identity token, container, instance profile");
                        })
                        .build())) {
            HttpResponse<String> response = jdk.send(HttpRequest.newBuilder(
                    bare.baseUri().resolve("/bedrock-agent/knowledgebases/KB1/retrieve"))
                    .header("Content-Type", "application/json")
                    .header("Authorization", CLIENT_AUTHORIZATION)
                    .header("X-Amz-Security-Token", FakeSecrets.AWS_SESSION)
                    .POST(HttpRequest.BodyPublishers.ofString(RETRIEVE)).build(), HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).isEqualTo(502);
            assertThat(response.body()).isEqualTo("raglog proxy: the proxy has no AWS credentials to sign the request"
                    + " with (its log says where it looked)\n");
            assertThat(upstream.received()).as("nothing went upstream").hasSize(before);
            assertThat(bare.metrics().snapshot().upstreamFailures()).isEqualTo(1);

            CallEvent call = new CallLog(file).awaitEvents(1).get(0);
            assertThat(call.response().status()).isEqualTo(502);
            assertThat(call.failed()).isTrue();
            assertThat(call.response().headers()).containsEntry(CallEventFactory.INCOMPLETE_HEADER,
                    "not signed for AWS");
            assertThat(call.request().headers()).containsEntry("authorization", "REDACTED");

            Eventually.await("the credentials warning", Duration.ofSeconds(10),
                    () -> captured.text().contains("Unable to load credentials"));
            for (String written : List.of(response.body(), new String(new CallLog(file).bytes(),
                    StandardCharsets.UTF_8), captured.text())) {
                assertThat(FakeSecrets.foundIn(written)).isEmpty();
                assertThat(written).doesNotContain(CLIENT_AUTHORIZATION.substring(CLIENT_AUTHORIZATION.indexOf("Sig")));
            }
        }
    }

    private static String sha256(String body) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(body.getBytes(StandardCharsets.UTF_8)));
    }

    private static List<String> signedHeaders(FakeUpstream.Received r) {
        Matcher m = Pattern.compile("SignedHeaders=([^,]+),").matcher(r.header("Authorization"));
        assertThat(m.find()).isTrue();
        return List.of(m.group(1).split(";"));
    }

    private static String signature(FakeUpstream.Received r) {
        String authorization = r.header("Authorization");
        return authorization.substring(authorization.indexOf("Signature=") + "Signature=".length());
    }

    /**
     * The upstream's check: the headers the Authorization names, as received, with the received body, signed again
     * with the same credentials at the received X-Amz-Date. The signer adds X-Amz-Date, the session token and the
     * body's hash itself (from the body received), so those are not taken from the request.
     */
    private static String signedAgain(FakeUpstream.Received r) {
        Instant at = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC)
                .parse(r.header("X-Amz-Date"), Instant::from);
        SdkHttpRequest.Builder request = SdkHttpRequest.builder()
                .uri(URI.create(upstream.baseUri() + r.pathAndQuery()))
                .method(SdkHttpMethod.fromValue(r.method()));
        for (String name : signedHeaders(r)) {
            if (!Set.of("x-amz-date", "x-amz-security-token", "x-amz-content-sha256").contains(name)) {
                request.putHeader(name, r.header(name));
            }
        }
        return AwsV4HttpSigner.create().sign(s -> s.identity(PROXY_CREDENTIALS)
                .request(request.build())
                .payload(ContentStreamProvider.fromByteArray(r.body()))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "bedrock")
                .putProperty(AwsV4HttpSigner.REGION_NAME, "us-east-1")
                .putProperty(AwsV4HttpSigner.PAYLOAD_SIGNING_ENABLED, true)
                .putProperty(HttpSigner.SIGNING_CLOCK, Clock.fixed(at, ZoneOffset.UTC)))
                .request().firstMatchingHeader("Authorization").orElseThrow();
    }
}
