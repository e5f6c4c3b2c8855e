package io.raglog.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.raglog.testing.LogCapture;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * Where the bedrock judge's AWS credentials come from and when: once when the provider is made (none: it is not made),
 * then renewed on a thread of their own before they expire, never asked for on the thread that sends a request.
 */
class BedrockJudgeCredentialsTest {

    static final String SECRET_KEY = "rotating/Secret+Key/0f9e8d7c6b5a";
    static final String NOT_FOUND = "Unable to load credentials from any of the providers in the chain: environment"
            + " variables, system properties, profile file, web identity token, container, instance profile";

    private LlmTestServer server;

    @BeforeEach
    void start() throws Exception {
        server = LlmTestServer.start().answers(r -> "{}");
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /**
     * Temporary credentials that expire {@code life} after they are handed out, a new session token each time (or a
     * failure, once told to fail), noting the thread each request for them came from.
     */
    private static final class Rotating implements AwsCredentialsProvider {
        final List<String> askedOn = new CopyOnWriteArrayList<>();
        final AtomicInteger issued = new AtomicInteger();
        final Duration life;
        volatile boolean failing;

        Rotating(Duration life) {
            this.life = life;
        }

        @Override
        public AwsCredentials resolveCredentials() {
            askedOn.add(Thread.currentThread().getName());
            if (failing) {
                throw SdkClientException.create(NOT_FOUND);
            }
            return AwsSessionCredentials.builder().accessKeyId("AKIDROTATING").secretAccessKey(SECRET_KEY)
                    .sessionToken("token-" + issued.incrementAndGet()).expirationTime(Instant.now().plus(life))
                    .build();
        }
    }

    private LlmSettings signedSettings() {
        return LlmSettings.fromEnv(Map.of(LlmSettings.PROVIDER, "bedrock", LlmSettings.BASE_URL, server.rootUrl(),
                LlmSettings.REGION, "us-west-2", LlmSettings.MODEL, "amazon.nova-lite-v1:0",
                LlmSettings.TIMEOUT_MS, "10000"));
    }

    private static ChatReply ask(ChatProvider provider) {
        return provider.send(new ChatRequest("p.v1", "system", EscapedText.of("user"), 5)).join();
    }

    @Test
    void shouldRefuseToStartWithNeitherAnApiKeyNorCredentials() {
        assertThatThrownBy(() -> new BedrockProvider(signedSettings(), () -> {
            throw SdkClientException.create(NOT_FOUND);
        }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("provider bedrock needs a Bedrock API key (RAGLOG_LLM_API_KEY or RAGLOG_LLM_API_KEY_FILE)"
                        + " or AWS credentials (environment, profile, web identity, EKS Pod Identity or instance role),"
                        + " and has neither: " + NOT_FOUND);
        assertThat(server.requests()).isZero();
    }

    @Test
    void shouldRenewCredentialsBeforeTheyExpireOnAThreadOfTheirOwn() throws Exception {
        // Renewed at half their life, 2 s, and every half of what is left after that, at least a second apart.
        Rotating credentials = new Rotating(Duration.ofSeconds(4));
        try (BedrockProvider provider = new BedrockProvider(signedSettings(), credentials)) {
            ask(provider);
            await(() -> credentials.issued.get() >= 2);
            ask(provider);
        }

        assertThat(server.received()).extracting(r -> r.headers().get("x-amz-security-token"))
                .containsExactly("token-1", "token-2");
        assertThat(credentials.askedOn.get(0)).as("at start, by the thread that made the provider")
                .isEqualTo(Thread.currentThread().getName());
        assertThat(credentials.askedOn.subList(1, credentials.askedOn.size()))
                .as("then only by the renewing thread, never by a sending one").isNotEmpty()
                .containsOnly("raglog-llm-aws-credentials");
    }

    @Test
    void shouldFailRequestsAtOnceWhenTheCredentialsExpiredUnrenewed() throws Exception {
        Rotating credentials = new Rotating(Duration.ofMillis(1500));
        try (LogCapture logs = new LogCapture();
                BedrockProvider provider = new BedrockProvider(signedSettings(), credentials)) {
            credentials.failing = true;
            ask(provider);
            Thread.sleep(1_700);

            assertThatThrownBy(() -> ask(provider)).isInstanceOf(CompletionException.class).cause()
                    .isInstanceOf(LlmCallException.class)
                    .hasMessage("the AWS credentials expired and could not be renewed (the log says why)")
                    .satisfies(e -> assertThat(((LlmCallException) e).retryable()).isFalse());
            assertThat(server.requests()).as("the request that found them valid, not the one after").isEqualTo(1);
            assertThat(logs.text()).contains("the AWS credentials the LLM judge signs with could not be renewed"
                    + " (SdkClientException): " + NOT_FOUND).doesNotContain(SECRET_KEY, "token-1");
        }
    }

    /**
     * EKS IRSA: the pod's service account token in a file, a role to assume with it, and STS answering (here a local
     * one, named as AWS_ENDPOINT_URL_STS would): the chain asks STS once, when the provider is made, through the JDK's
     * HTTP client, and every request is signed with the role's temporary credentials.
     */
    @Test
    void shouldSignWithTheRoleAWebIdentityTokenAssumes(@TempDir Path dir) throws Exception {
        assumeTrue(System.getenv("AWS_ACCESS_KEY_ID") == null, "the environment's own AWS keys come first in the chain");
        Path token = Files.writeString(dir.resolve("token"), "eyJraWQiOiJwb2QtdG9rZW4ifQ.service-account");
        List<String> stsAsked = new CopyOnWriteArrayList<>();
        HttpServer sts = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
        sts.createContext("/", exchange -> {
            stsAsked.add(URLDecoder.decode(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8),
                    StandardCharsets.UTF_8));
            answer(exchange, assumedRole(Instant.now().plus(Duration.ofHours(1))));
        });
        sts.start();
        try (SystemProperties properties = new SystemProperties()
                .set("aws.webIdentityTokenFile", token.toString())
                .set("aws.roleArn", "arn:aws:iam::123456789012:role/raglog-judge")
                .set("aws.roleSessionName", "raglog-judge")
                .set("aws.region", "us-west-2")
                .set("aws.endpointUrlSts", "http://127.0.0.1:" + sts.getAddress().getPort());
                BedrockProvider provider = new BedrockProvider(signedSettings())) {
            assertThat(stsAsked).singleElement().asString().contains("Action=AssumeRoleWithWebIdentity",
                    "RoleArn=arn:aws:iam::123456789012:role/raglog-judge",
                    "WebIdentityToken=eyJraWQiOiJwb2QtdG9rZW4ifQ.service-account");
            ask(provider);
            ask(provider);
        } finally {
            sts.stop(0);
        }

        assertThat(stsAsked).as("asked once, the answer held").hasSize(1);
        assertThat(server.received()).hasSize(2).allSatisfy(r -> {
            assertThat(r.headers().get("authorization")).startsWith("AWS4-HMAC-SHA256 Credential=ASIAROLEEXAMPLE/");
            assertThat(r.headers().get("x-amz-security-token")).isEqualTo("role-session-token");
        });
    }

    private static String assumedRole(Instant expiry) {
        return "<AssumeRoleWithWebIdentityResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
                + "<AssumeRoleWithWebIdentityResult><Credentials><AccessKeyId>ASIAROLEEXAMPLE</AccessKeyId>"
                + "<SecretAccessKey>" + SECRET_KEY + "</SecretAccessKey><SessionToken>role-session-token</SessionToken>"
                + "<Expiration>" + expiry + "</Expiration></Credentials></AssumeRoleWithWebIdentityResult>"
                + "<ResponseMetadata><RequestId>sts-1</RequestId></ResponseMetadata>"
                + "</AssumeRoleWithWebIdentityResponse>";
    }

    private static void answer(HttpExchange exchange, String xml) throws IOException {
        byte[] bytes = xml.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "text/xml");
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("waited 10 s").isLessThan(deadline);
            Thread.sleep(50);
        }
    }
}
