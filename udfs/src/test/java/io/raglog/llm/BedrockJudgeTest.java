package io.raglog.llm;

import static io.raglog.checks.FeatureList.*;
import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.RunBuilder;
import io.raglog.schemas.Json;
import io.raglog.testing.LogCapture;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The judge on Amazon Bedrock's Converse API, against a real local HTTP server: the request as Bedrock reads it, a
 * Bedrock API key sent as a bearer token, or else AWS credentials from the SDK's default chain (here its system
 * properties) signing every request, which the server checks with a SigV4 written from the specification; and
 * Bedrock's error replies, which degrade a check as the other vendors' do, no secret reaching a message or a log.
 */
class BedrockJudgeTest {

    static final String MODEL = "us.anthropic.claude-3-5-haiku-20241022-v1:0";
    static final String CONVERSE_PATH = "/model/us.anthropic.claude-3-5-haiku-20241022-v1%3A0/converse";
    static final String API_KEY = "ABSKQmVkcm9ja0FQSUtleS1mYWtlLWtleS0xMjM0";
    static final String KEY_ID = "AKIDJUDGEEXAMPLE";
    static final String SECRET_KEY = "judge/Secret+Key/wJalrXUtnFEMIK7MDENGbPxRfiCY";
    static final String SESSION_TOKEN = "FwoGZXIvYXdzEJudgeSessionToken//fake+9f3c1a7e5b2d";
    private final SystemProperties properties = new SystemProperties();
    private LlmTestServer server;
    private Judge judge;

    @BeforeEach
    void start() throws Exception {
        server = LlmTestServer.start();
    }

    @AfterEach
    void stop() {
        if (judge != null) {
            judge.close();
        }
        server.close();
        properties.close();
    }

    /** Where the SDK's default chain looks first. */
    private void credentialsInSystemProperties() {
        properties.set("aws.accessKeyId", KEY_ID).set("aws.secretAccessKey", SECRET_KEY)
                .set("aws.sessionToken", SESSION_TOKEN);
    }

    /** The server as Bedrock's endpoint: 127.0.0.1 names no region, so llm.region says which is signed for. */
    private LlmSettings settings(String apiKey, String... overrides) {
        Map<String, String> env = new HashMap<>(Map.of(LlmSettings.PROVIDER, "bedrock",
                LlmSettings.BASE_URL, server.rootUrl(), LlmSettings.REGION, "us-east-1", LlmSettings.MODEL, MODEL,
                LlmSettings.RETRIES, "2", LlmSettings.BACKOFF_MS, "10", LlmSettings.MAX_BACKOFF_MS, "100",
                LlmSettings.TIMEOUT_MS, "20000"));
        if (apiKey != null) {
            env.put(LlmSettings.API_KEY, apiKey);
        }
        for (int i = 0; i < overrides.length; i += 2) {
            env.put(overrides[i], overrides[i + 1]);
        }
        return LlmSettings.fromEnv(env);
    }

    private LlmResult run(LlmSettings settings) throws Exception {
        judge = Judges.create(settings, null);
        return new LlmChecks(judge, settings.economy()).run(RunBuilder.healthy().build()).get(30, TimeUnit.SECONDS);
    }

    @Test
    void shouldAskConverseForEveryCheckAndReadItsAnswersAndTokens() throws Exception {
        LlmResult r = run(settings(API_KEY));

        assertThat(server.requests("/converse")).isEqualTo(5);
        assertThat(server.received()).extracting(LlmTestServer.Received::check)
                .containsExactlyInAnyOrder(LlmCheck.values());
        LlmTestServer.Received first = server.received().get(0);
        assertThat(first.method()).isEqualTo("POST");
        assertThat(first.rawPath()).as("the inference profile's colon escaped, as the AWS SDKs send it")
                .isEqualTo(CONVERSE_PATH);
        assertThat(first.headers()).containsEntry("content-type", "application/json");
        assertThat(first.body().fieldNames()).toIterable()
                .containsExactly("system", "messages", "inferenceConfig");
        assertThat(first.body().path("system")).hasSize(1);
        assertThat(first.system()).contains("Reply with one JSON object");
        assertThat(first.body().path("messages")).hasSize(1);
        assertThat(first.body().path("messages").path(0).path("role").asText()).isEqualTo("user");
        assertThat(first.user()).startsWith("<<<RAGLOG-DATA ");
        assertThat(first.body().path("inferenceConfig").path("maxTokens").asInt()).isEqualTo(1024);
        assertThat(first.body().path("inferenceConfig").path("temperature").asInt()).isZero();

        assertThat(r.usage().judge()).isEqualTo("bedrock:" + MODEL);
        assertThat(r.usage().calls()).isEqualTo(5);
        assertThat(r.usage().inputTokens()).isEqualTo(500);
        assertThat(r.usage().outputTokens()).isEqualTo(100);
        assertThat(r.usage().degraded()).isFalse();
        assertThat(r.features()).containsEntry(LLM_REWRITE_FAULT, 8.0).containsEntry(LLM_RERANK_FAULT, 7.0)
                .containsEntry(LLM_SUPPORT_UNSUPPORTED, 0.5).containsEntry(FLOW_PIECES, 1.0);
    }

    @Test
    void shouldSendABedrockApiKeyAsABearerTokenAndSignNothing() throws Exception {
        credentialsInSystemProperties(); // there, but the API key decides

        run(settings(API_KEY));

        assertThat(server.received()).hasSize(5).allSatisfy(r -> {
            assertThat(r.headers()).containsEntry("authorization", "Bearer " + API_KEY);
            assertThat(r.headers()).doesNotContainKeys("x-amz-date", "x-amz-security-token", "x-amz-content-sha256");
        });
    }

    @Test
    void shouldSignEveryRequestWithTheDefaultChainsCredentials() throws Exception {
        credentialsInSystemProperties();

        LlmResult r = run(settings(null));

        assertThat(r.usage().degraded()).isFalse();
        assertThat(server.received()).hasSize(5).allSatisfy(received -> {
            Map<String, String> h = received.headers();
            String date = h.get("x-amz-date");
            assertThat(date).matches("\\d{8}T\\d{6}Z");
            assertThat(h.get("authorization")).startsWith("AWS4-HMAC-SHA256 Credential=" + KEY_ID + "/"
                    + date.substring(0, 8) + "/us-east-1/bedrock/aws4_request, SignedHeaders=content-type;host;"
                    + "x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature=");
            assertThat(h.get("x-amz-security-token")).isEqualTo(SESSION_TOKEN);
            assertThat(h.get("x-amz-content-sha256")).isEqualTo(SigV4Reference.sha256Hex(received.bytes()));
            assertThat(received.rawPath()).isEqualTo(CONVERSE_PATH);
            assertThat(h.get("authorization")).as("the signature AWS would compute for the request received")
                    .isEqualTo(expectedSignature(received, "us-east-1"));
        });
    }

    @Test
    void shouldCheckSignaturesWithAReferenceThatSignsAwsOwnTestSuiteCase() {
        // post-x-www-form-urlencoded of AWS's SigV4 test suite, body signed (as the proxy's AwsSigningTest has it)
        Map<String, String> headers = Map.of("content-length", "13",
                "content-type", "application/x-www-form-urlencoded", "host", "example.amazonaws.com",
                "x-amz-content-sha256", "9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e",
                "x-amz-date", "20150830T123600Z");

        assertThat(SigV4Reference.authorization("POST", "/", headers, List.of("content-length", "content-type", "host",
                "x-amz-content-sha256", "x-amz-date"), "Param1=value1".getBytes(StandardCharsets.UTF_8),
                "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "us-east-1", "service", "20150830T123600Z"))
                .isEqualTo("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request,"
                        + " SignedHeaders=content-length;content-type;host;x-amz-content-sha256;x-amz-date,"
                        + " Signature=d3875051da38690788ef43de4db0d8f280229d82040bfac253562e56c3f20e0b");
    }

    /**
     * Bedrock's errors (restJson1: the type in x-amzn-ErrorType, {"message": ...}), each echoing the secrets the
     * request carried: the API key, or the signing credentials' session token and secret key.
     */
    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "400, ValidationException, 5",
        "403, AccessDeniedException, 5",
        "429, ThrottlingException, 15",
        "500, InternalServerException, 15"})
    void shouldDegradeOnBedrockErrorsAsOnAnyVendorsAndLeakNoSecret(int status, String type, int calls)
            throws Exception {
        credentialsInSystemProperties();
        server.always(req -> req.headers().containsKey("x-amz-security-token"), new LlmTestServer.AwsError(status,
                type, "The security token " + SESSION_TOKEN + " signed by " + SECRET_KEY + " is refused"));
        server.always(req -> true, new LlmTestServer.AwsError(status, type, "The key " + API_KEY + " is refused"));
        List<String> written = new ArrayList<>();

        try (LogCapture logs = new LogCapture()) {
            for (String apiKey : new String[] {API_KEY, null}) {
                int before = server.requests();
                LlmResult r = run(settings(apiKey));
                judge.close();
                judge = null;

                assertThat(server.requests() - before).as("5 checks, retried unless refused for good").isEqualTo(calls);
                assertThat(r.usage().degraded()).isTrue();
                assertThat(r.usage().degradedChecks())
                        .containsExactlyInAnyOrder("rewrite", "retrieval", "rerank", "support", "evidence_flow");
                assertThat(r.features()).isEmpty();
                written.add(Json.write(r));
            }
            LlmSettings signed = settings(null);
            try (Judge one = Judges.create(signed, null)) {
                CheckOutcome outcome = one.check(LlmCheck.REWRITE, RunBuilder.healthy().build()).get(10,
                        TimeUnit.SECONDS);
                assertThat(outcome.error()).contains("endpoint answered " + status, "The security token ****");
                written.add(outcome.error());
            }
            written.add(signed.toString());
            written.add(logs.text());
        }
        assertThat(written.get(written.size() - 1)).as("the log").contains("unanswered after");
        for (String text : written) {
            assertThat(text).doesNotContain(SESSION_TOKEN, SECRET_KEY, API_KEY);
        }
    }

    /** The received request's signature, computed again from its headers, path and body. */
    private static String expectedSignature(LlmTestServer.Received r, String region) {
        Matcher signed = Pattern.compile("SignedHeaders=([^,]+),").matcher(r.headers().get("authorization"));
        assertThat(signed.find()).isTrue();
        return SigV4Reference.authorization(r.method(), r.rawPath(), r.headers(), List.of(signed.group(1).split(";")),
                r.bytes(), KEY_ID, SECRET_KEY, region, "bedrock", r.headers().get("x-amz-date"));
    }
}
