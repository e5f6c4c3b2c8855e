package io.raglog.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.Json;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.SplittableRandom;
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

    @Test
    void shouldJudgeUtf8AsAStrictDecoderDoesOnTextAndBrokenText() {
        // code points of every UTF-8 length, and the bytes a strict decoder refuses: a lone continuation byte, an
        // overlong "/", an encoded surrogate, a code point above U+10FFFF, a sequence cut short
        String[] pieces = {"a", "{\"q\":", "é", "’", "Σοφία", "中", "😀", "\n"};
        byte[][] broken = {{(byte) 0x80}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xE2, (byte) 0x80}, {(byte) 0xFF}};
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 3_000; i++) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            // long enough, at times, to fill the check's 4,096-char scratch buffer more than once
            int parts = random.nextInt(20) == 0 ? random.nextInt(2_000, 6_000) : random.nextInt(0, 40);
            for (int k = 0; k < parts; k++) {
                b.writeBytes(pieces[random.nextInt(pieces.length)].getBytes(StandardCharsets.UTF_8));
            }
            if (random.nextBoolean()) {
                byte[] bad = broken[random.nextInt(broken.length)];
                byte[] whole = b.toByteArray();
                int at = random.nextInt(whole.length + 1);
                b.reset();
                b.write(whole, 0, at);
                b.writeBytes(bad);
                b.write(whole, at, whole.length - at);
            }
            byte[] bytes = b.toByteArray();
            assertThat(DeadLetters.isUtf8(bytes)).as("case %d, %d bytes", i, bytes.length)
                    .isEqualTo(DeadLetters.utf8OrNull(bytes) != null);
        }
    }

    @Test
    void shouldJudgeUtf8AsAStrictDecoderDoesOnRandomBytesNearEveryBoundary() {
        // the bytes at the edges of table 3-7's ranges, so that every lead byte meets every kind of second byte
        int[] edges = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC,
            0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF};
        SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 200_000; i++) {
            byte[] bytes = new byte[random.nextInt(0, 24)];
            for (int k = 0; k < bytes.length; k++) {
                int kind = random.nextInt(4);
                bytes[k] = (byte) (kind == 0 ? random.nextInt(256) : kind == 1 ? random.nextInt(0x80)
                        : edges[random.nextInt(edges.length)]);
            }
            assertThat(DeadLetters.isUtf8(bytes)).as("case %d: %s", i, HexFormat.of().formatHex(bytes))
                    .isEqualTo(DeadLetters.utf8OrNull(bytes) != null);
        }
    }
}
