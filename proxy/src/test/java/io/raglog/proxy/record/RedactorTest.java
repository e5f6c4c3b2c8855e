package io.raglog.proxy.record;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RedactorTest {

    private final Redactor redactor = new Redactor(RedactionRules.withAdditions(List.of("x-internal-pass"),
            List.of("sas"), List.of("/credentials/1", "session_blob")));

    @ParameterizedTest
    @ValueSource(strings = {"Authorization", "proxy-authorization", "x-api-key", "Api-Key", "openai-api-key",
        "anthropic-api-key", "cookie", "Set-Cookie", "x-goog-api-key", "X-Amz-Security-Token", "x-auth-token",
        "x-client-secret", "ocp-apim-subscription-key", "x-internal-pass", "x-db-password", "apikey"})
    void shouldRedactCredentialHeaders(String name) {
        assertThat(redactor.headerValue(name, "FAKE-FAKE-value")).isEqualTo("REDACTED");
    }

    /** The proxy's and the job's former lists, each of which lacked some of the other's. */
    @ParameterizedTest
    @ValueSource(strings = {"authorization", "proxy-authorization", "x-api-key", "api-key", "openai-api-key",
        "anthropic-api-key", "x-goog-api-key", "x-auth-token", "ocp-apim-subscription-key", "cookie", "set-cookie"})
    void shouldNameEveryCredentialHeaderTheJobRedactsToo(String name) {
        assertThat(RedactionRules.defaults().headerNames()).contains(name);
    }

    @ParameterizedTest
    @ValueSource(strings = {"content-type", "user-agent", "traceparent", "openai-organization", "anthropic-version",
        "x-request-id", "openai-processing-ms", "x-stainless-lang"})
    void shouldKeepOrdinaryHeaders(String name) {
        assertThat(redactor.headerValue(name, "value")).isEqualTo("value");
    }

    @Test
    void shouldRedactSecretQueryValuesAndKeepTheRestOfTheUrlAsItWas() {
        assertThat(redactor.url("https://generativelanguage.googleapis.com/v1beta/models/gemini:embed?key=AIza-FAKE"
                + "&alt=json")).isEqualTo("https://generativelanguage.googleapis.com/v1beta/models/gemini:embed"
                        + "?key=REDACTED&alt=json");
        assertThat(redactor.url("https://x.blob.core.windows.net/c/b?sv=2022-11-02&sig=FAKE%2Bsig&sas=FAKE#frag"))
                .isEqualTo("https://x.blob.core.windows.net/c/b?sv=2022-11-02&sig=REDACTED&sas=REDACTED#frag");
        assertThat(redactor.url("https://api.example.com/search?q=token+limits&api%2Dkey=FAKE&flag"))
                .isEqualTo("https://api.example.com/search?q=token+limits&api%2Dkey=REDACTED&flag");
        assertThat(redactor.url("http://qdrant:6333/collections/c/points?wait=true"))
                .isEqualTo("http://qdrant:6333/collections/c/points?wait=true");
    }

    @Test
    void shouldRedactUserInfoInUrls() {
        assertThat(redactor.url("https://elastic:FAKE-pw@es.internal:9200/idx/_search?size=5"))
                .isEqualTo("https://REDACTED@es.internal:9200/idx/_search?size=5");
    }

    @Test
    void shouldRedactConfiguredAndDefaultBodyFieldsAnywhereButNotTokenCounts() throws Exception {
        JsonNode body = Json.MAPPER.readTree("""
                {"api_key":"tvly-FAKE","query":"cash flow","max_tokens":512,
                 "nested":[{"apiKey":"FAKE"},{"Access-Token":"FAKE","token":"the"}],
                 "credentials":["user","FAKE-pw"],"session_blob":{"a":1},
                 "logprobs":{"content":[{"token":"Hello","logprob":-0.1}]}}""");

        JsonNode redacted = redactor.body(body);

        assertThat(redacted.path("api_key").asText()).isEqualTo("REDACTED");
        assertThat(redacted.path("nested").path(0).path("apiKey").asText()).isEqualTo("REDACTED");
        assertThat(redacted.path("nested").path(1).path("Access-Token").asText()).isEqualTo("REDACTED");
        assertThat(redacted.path("credentials").path(1).asText()).isEqualTo("REDACTED");
        assertThat(redacted.path("credentials").path(0).asText()).isEqualTo("user");
        assertThat(redacted.path("session_blob").asText()).isEqualTo("REDACTED");
        assertThat(redacted.path("max_tokens").asInt()).isEqualTo(512);
        assertThat(redacted.path("nested").path(1).path("token").asText()).isEqualTo("the");
        assertThat(redacted.path("logprobs").path("content").path(0).path("token").asText()).isEqualTo("Hello");
        assertThat(redacted.path("query").asText()).isEqualTo("cash flow");
    }

    @Test
    void shouldRedactFormBodies() {
        assertThat(redactor.formPairs("grant_type=client_credentials&client_secret=FAKE&password=FAKE&scope=read", true))
                .isEqualTo("grant_type=client_credentials&client_secret=REDACTED&password=REDACTED&scope=read");
    }

    @Test
    void shouldNeverLetConfigurationRemoveTheDefaults() {
        RedactionRules rules = RedactionRules.withAdditions(List.of(), List.of(), List.of());
        assertThat(rules.isSecretHeader("authorization")).isTrue();
        assertThat(rules.isSecretBodyField("api_key")).isTrue();
        assertThat(rules.isSecretQueryParam("key")).isTrue();
    }
}
