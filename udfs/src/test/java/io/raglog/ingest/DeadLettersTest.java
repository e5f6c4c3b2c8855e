package io.raglog.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.Json;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** A dead letter always fits the dead-letter topic, however large the message it keeps. */
class DeadLettersTest {

    /** Kafka's default largest record (message.max.bytes). */
    private static final int TOPIC_MAX_BYTES = 1_048_588;

    @Test
    void shouldKeepTheHeadOfANearLimitBinaryMessageAndSaySo() {
        byte[] huge = new byte[900 * 1024];
        Arrays.fill(huge, (byte) 0xFF); // never valid in UTF-8, so kept as base64

        DeadLetter letter = DeadLetters.of(new RawMessage("raglog.otlp", 1, 9, huge), "not OTLP");

        assertThat(Json.writeBytes(letter).length).isLessThan(TOPIC_MAX_BYTES);
        assertThat(Base64.getDecoder().decode(letter.payloadBase64()).length).isEqualTo(DeadLetters.MAX_PAYLOAD_BYTES);
        assertThat(letter.reason()).isEqualTo("not OTLP (payload cut to its first 131072 of 921600 bytes)");
    }

    @Test
    void shouldCutLongTextBetweenCharactersSoItStaysText() {
        // NUL characters are escaped six times their size in JSON; 'é' is two bytes, so a cut may fall inside one
        String text = "\u0000é".repeat(DeadLetters.MAX_PAYLOAD_BYTES);

        DeadLetter letter = DeadLetters.of(new RawMessage("raglog.calls", 0, 4, text.getBytes(StandardCharsets.UTF_8)),
                "not JSON");

        assertThat(letter.payload()).isNotNull();
        assertThat(text).startsWith(letter.payload());
        assertThat(Json.writeBytes(letter).length).isLessThan(TOPIC_MAX_BYTES);
    }

    @Test
    void shouldKeepASmallMessageWhole() {
        byte[] small = "{\"schema\":\"raglog.call/v2\"}".getBytes(StandardCharsets.UTF_8);

        DeadLetter letter = DeadLetters.of(new RawMessage("raglog.calls", 0, 1, small), "unknown schema");

        assertThat(letter.payload()).isEqualTo("{\"schema\":\"raglog.call/v2\"}");
        assertThat(letter.reason()).isEqualTo("unknown schema");
    }

    @Test
    void shouldNotCallAPayloadCutWhenOnlyItsCredentialsWereRedacted() {
        String call = "{\"headers\":{\"authorization\":\"Bearer fake-token-1234\"}}";

        DeadLetter letter = DeadLetters.of(new RawMessage("raglog.calls", 0, 2, call.getBytes(StandardCharsets.UTF_8)),
                "not a call");

        assertThat(letter.payload()).doesNotContain("fake-token-1234").contains("REDACTED");
        assertThat(letter.reason()).isEqualTo("not a call");
    }
}
