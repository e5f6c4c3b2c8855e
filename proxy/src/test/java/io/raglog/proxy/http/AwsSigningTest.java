package io.raglog.proxy.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.raglog.proxy.AwsSigV4;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * The signature checked against AWS's published Signature Version 4 test suite, so the test compares the signer with
 * AWS's expected Authorization header, not with itself: credential scope
 * {@code AKIDEXAMPLE/20150830/us-east-1/service/aws4_request}, the suite's example secret key, 2015-08-30T12:36:00Z.
 * The cases are the suite's signed-body ones ({@code post-x-www-form-urlencoded} and its {@code -parameters} variant,
 * as the AWS Common Runtime's copy of the suite signs them, {@code sign_body: true}): the proxy always signs the body
 * and sends its hash as {@code x-amz-content-sha256}, as the SDK's signer does, so the suite's unsigned-body cases
 * ({@code get-vanilla}...), whose SignedHeaders lack that header, cannot come out the same.
 */
class AwsSigningTest {

    static final AwsBasicCredentials SUITE_CREDENTIALS = AwsBasicCredentials.create("AKIDEXAMPLE",
            "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
    static final Clock SUITE_CLOCK = Clock.fixed(Instant.parse("2015-08-30T12:36:00Z"), ZoneOffset.UTC);
    static final AwsSigV4 SUITE_SCOPE = new AwsSigV4("service", "us-east-1");
    static final byte[] FORM = "Param1=value1".getBytes(StandardCharsets.UTF_8);
    static final String FORM_SHA256 = "9095672bbd1f56dfc5b65f3e153adc8731a4a654192329106275f4c7b24d0b6e";
    static final String SUITE_PREFIX = "AWS4-HMAC-SHA256"
            + " Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request,"
            + " SignedHeaders=content-length;content-type;host;x-amz-content-sha256;x-amz-date, Signature=";

    private final AwsSigning signing = new AwsSigning(StaticCredentialsProvider.create(SUITE_CREDENTIALS), SUITE_CLOCK);

    @AfterEach
    void close() {
        signing.close();
    }

    private static HttpHeaders form(String contentType) {
        return new DefaultHttpHeaders().add("Content-Type", contentType).add("Host", "example.amazonaws.com")
                .add("Content-Length", "13");
    }

    private HttpHeaders sign(HttpHeaders headers) {
        return signing.sign(SUITE_SCOPE, HttpMethod.POST, "https://example.amazonaws.com/", headers, FORM).join();
    }

    @Test
    void shouldSignPostXWwwFormUrlencodedAsTheTestSuiteExpects() {
        HttpHeaders signed = sign(form("application/x-www-form-urlencoded"));

        assertThat(signed.get("Authorization")).isEqualTo(SUITE_PREFIX
                + "d3875051da38690788ef43de4db0d8f280229d82040bfac253562e56c3f20e0b");
        assertThat(signed.get("X-Amz-Date")).isEqualTo("20150830T123600Z");
        assertThat(signed.get("x-amz-content-sha256")).isEqualTo(FORM_SHA256);
        assertThat(signed.get("Host")).isEqualTo("example.amazonaws.com");
        assertThat(signed.get("Content-Length")).isEqualTo("13");
    }

    @Test
    void shouldSignPostXWwwFormUrlencodedParametersAsTheTestSuiteExpects() {
        assertThat(sign(form("application/x-www-form-urlencoded; charset=utf-8")).get("Authorization"))
                .isEqualTo(SUITE_PREFIX + "328d1b9eaadca9f5818ef05e8392801e091653bafec24fcab71e7344e7f51422");
    }

    @Test
    void shouldDropTheClientsOwnSignatureAndSignAsIfItHadNone() {
        HttpHeaders client = form("application/x-www-form-urlencoded")
                .add("Authorization", "AWS4-HMAC-SHA256 Credential=AKIACLIENT/20240101/us-east-1/bedrock/aws4_request,"
                        + " SignedHeaders=host;x-amz-date, Signature=00ff")
                .add("X-Amz-Date", "20240101T000000Z")
                .add("X-Amz-Security-Token", "client-session-token")
                .add("X-Amz-Content-Sha256", "UNSIGNED-PAYLOAD");

        HttpHeaders signed = sign(client);

        assertThat(signed.get("Authorization")).isEqualTo(SUITE_PREFIX
                + "d3875051da38690788ef43de4db0d8f280229d82040bfac253562e56c3f20e0b");
        assertThat(signed.getAll("Authorization")).hasSize(1);
        assertThat(signed.getAll("X-Amz-Date")).containsExactly("20150830T123600Z");
        assertThat(signed.getAll("X-Amz-Content-Sha256")).containsExactly(FORM_SHA256);
        assertThat(signed.contains("X-Amz-Security-Token")).isFalse();
        assertThat(client.get("X-Amz-Date")).as("the forwarded headers themselves are left alone")
                .isEqualTo("20240101T000000Z");
    }

    @Test
    void shouldSendAndSignTheSessionTokenOfTemporaryCredentials() {
        try (AwsSigning session = new AwsSigning(StaticCredentialsProvider.create(AwsSessionCredentials.create(
                "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "session-token-of-the-proxy")),
                SUITE_CLOCK)) {
            HttpHeaders signed = session.sign(SUITE_SCOPE, HttpMethod.POST, "https://example.amazonaws.com/",
                    form("application/x-www-form-urlencoded"), FORM).join();

            assertThat(signed.get("X-Amz-Security-Token")).isEqualTo("session-token-of-the-proxy");
            assertThat(signed.get("Authorization")).contains("SignedHeaders=content-length;content-type;host;"
                    + "x-amz-content-sha256;x-amz-date;x-amz-security-token,");
        }
    }

    @Test
    void shouldFailWithAFixedReasonWhenThereAreNoCredentials() {
        try (AwsSigning none = new AwsSigning(() -> {
            throw SdkClientException.create("Unable to load credentials from any of the providers in the chain");
        }, SUITE_CLOCK)) {
            assertThatThrownBy(() -> none.sign(SUITE_SCOPE, HttpMethod.POST, "https://example.amazonaws.com/",
                    form("application/x-www-form-urlencoded"), FORM).join())
                    .isInstanceOf(CompletionException.class)
                    .cause().isInstanceOf(AwsSigning.CredentialsUnavailable.class)
                    .hasMessage("the proxy has no AWS credentials to sign the request with (its log says where it"
                            + " looked)");
        }
    }
}
