package io.raglog.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.CallEvent;
import io.raglog.schemas.DeadLetter;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A pipeline's credentials never reach what raglog keeps, whoever forgot to redact them. */
class CredentialsTest {

    private static final String TOKEN = "sk-proj-4f9a1c2e7b8d0a3f6e5c";

    private static String call(String headers) {
        return "{\"schema\":\"raglog.call/v1\",\"event_id\":\"e-1\",\"pipeline\":\"p\",\"run_hint\":null,"
                + "\"started_at\":\"2026-01-01T00:00:00Z\",\"ended_at\":\"2026-01-01T00:00:01Z\","
                + "\"request\":{\"method\":\"POST\",\"url\":\"https://api.openai.com/v1/chat/completions\","
                + "\"headers\":{" + headers + "},\"body\":{\"model\":\"gpt-4o\"}},"
                + "\"response\":{\"status\":200,\"headers\":{\"set-cookie\":\"session=abc123def456\"}},"
                + "\"source\":\"proxy\"}";
    }

    @Test
    void shouldRedactCredentialHeadersOfEveryDecodedCall() {
        CallEvent event = CallEventDecoder.decode(call("\"authorization\":\"Bearer " + TOKEN + "\","
                + "\"x-api-key\":\"k-8d7c6b5a4f3e2d1c\",\"user-agent\":\"OpenAI/Python 1.82.0\"")
                .getBytes(StandardCharsets.UTF_8)).event();

        assertThat(event.request().headers()).containsExactly(Map.entry("authorization", "REDACTED"),
                Map.entry("x-api-key", "REDACTED"), Map.entry("user-agent", "OpenAI/Python 1.82.0"));
        assertThat(event.response().headers()).containsEntry("set-cookie", "REDACTED");
    }

    /** The proxy's and the job's former lists, each of which lacked some of the other's. */
    @ParameterizedTest
    @ValueSource(strings = {"authorization", "proxy-authorization", "x-api-key", "api-key", "openai-api-key",
        "anthropic-api-key", "x-goog-api-key", "x-auth-token", "ocp-apim-subscription-key", "cookie", "set-cookie",
        "apikey", "X-OpenAI-Api-Key", "x-cohere-api-key", "x-amz-security-token", "x-chroma-token", "helicone-auth"})
    void shouldRedactEveryCredentialHeaderTheProxyRedacts(String name) {
        assertThat(Credentials.redactHeaders(Map.of(name, TOKEN, "user-agent", "curl/8")))
                .containsEntry(name, "REDACTED").containsEntry("user-agent", "curl/8");
        assertThat(Credentials.isCredentialHeader("http.request.header." + name.toUpperCase(Locale.ROOT))).isTrue();
        byte[] kept = Credentials.redactPayload(("{\"" + name + "\": \"" + TOKEN + "\"}")
                .getBytes(StandardCharsets.UTF_8));
        assertThat(new String(kept, StandardCharsets.UTF_8)).doesNotContain(TOKEN);
    }

    @Test
    void shouldKeepADeadLetterReadableButWithoutTheCredentialsInIt() {
        String truncated = call("\"authorization\":\"Bearer " + TOKEN + "\"").substring(0, 300);
        DeadLetter letter = DeadLetters.of(new RawMessage("raglog.calls", 0, 7,
                truncated.getBytes(StandardCharsets.UTF_8)), "not JSON");

        assertThat(letter.payload()).doesNotContain(TOKEN).contains("\"authorization\":\"REDACTED\"")
                .startsWith(truncated.substring(0, 150));
    }

    @Test
    void shouldRedactTokensInBinaryMessagesAndLeaveEveryOtherByte() {
        byte[] bytes = ("\u0001\u0002 Authorization: Bearer " + TOKEN + " \u0003").getBytes(StandardCharsets.UTF_8);
        bytes[0] = (byte) 0xC3;
        bytes[1] = (byte) 0x28; // not UTF-8
        DeadLetter letter = DeadLetters.of(new RawMessage("raglog.otlp", 1, 3, bytes), "not OTLP");

        byte[] kept = Base64.getDecoder().decode(letter.payloadBase64());
        assertThat(new String(kept, StandardCharsets.ISO_8859_1)).doesNotContain(TOKEN)
                .contains("Bearer REDACTED");
        assertThat(kept[0]).isEqualTo((byte) 0xC3);
        assertThat(kept[1]).isEqualTo((byte) 0x28);
    }

    @Test
    void shouldRedactCredentialAttributesOfTracesAndKeysInUrls() {
        String otlp = "{\"key\":\"http.request.header.x-api-key\",\"value\":{\"stringValue\":\"8d7c6b5a4f3e2d1c\"}},"
                + "{\"key\":\"http.request.header.authorization\",\"value\":{\"arrayValue\":{\"values\":"
                + "[{\"stringValue\":\"Basic dXNlcjpwYXNzd29yZA==\"}]}}},"
                + "{\"key\":\"url.full\",\"value\":{\"stringValue\":\"https://g.example/v1/embed?key=AIzaSyB-1234&alt=json\"}}";

        String kept = new String(Credentials.redactPayload(otlp.getBytes(StandardCharsets.UTF_8)),
                StandardCharsets.UTF_8);

        assertThat(kept).doesNotContain("8d7c6b5a4f3e2d1c", "dXNlcjpwYXNzd29yZA", "AIzaSyB-1234")
                .contains("?key=REDACTED&alt=json");
    }

    /** A compound name is a credential only where it ends in the word: rate limits and bodies' fields stay. */
    @Test
    void shouldKeepHeadersAndFieldsThatOnlyContainACredentialsWord() {
        Map<String, String> headers = Map.of("x-ratelimit-remaining-tokens", "149984", "user-agent", "curl/8");
        assertThat(Credentials.redactHeaders(headers)).isSameAs(headers);
        byte[] body = "{\"x-ratelimit-remaining-tokens\": \"149984\", \"key\": \"doc-17\", \"sort_key\": \"b\"}"
                .getBytes(StandardCharsets.UTF_8);
        assertThat(Credentials.redactPayload(body)).isSameAs(body);
    }

    @Test
    void shouldLeaveProseAndAlreadyRedactedValuesAlone() {
        byte[] prose = "Basic understanding of tokens; \"authorization\":\"REDACTED\"".getBytes(StandardCharsets.UTF_8);
        assertThat(Credentials.redactPayload(prose)).isSameAs(prose);
    }
}
