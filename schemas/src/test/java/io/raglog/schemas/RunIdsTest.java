package io.raglog.schemas;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Run ids and the digest under them must be exactly what they were before the digest was kept per thread. */
class RunIdsTest {

    /** {@link RunIds#of} as it was: the basis concatenated, its UTF-8 bytes, a new SHA-256, the hex concatenated. */
    static String plainRunId(String pipeline, String runHint, String anchorEventId) throws Exception {
        String basis = runHint != null && !runHint.isBlank()
                ? pipeline + "\u001fhint\u001f" + runHint
                : pipeline + "\u001fcall\u001f" + anchorEventId;
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(basis.getBytes(StandardCharsets.UTF_8));
        return "run-" + HexFormat.of().formatHex(digest, 0, 12);
    }

    /** Texts that stress the UTF-8 encoding: non-Latin-1, pairs, lone and split surrogates, empty, whitespace runs. */
    static final String[] EDGE_TEXTS = {"", " ", "  \t\n ", "support-bot", "evt-3", "4bf92f3577b34da6a3ce929d0e0e4736",
        "caf\u00e9", "\u00ff\u0100", "\u07ff\u0800", "\uffff", "Σοφία", "İstanbul", "“quoted” — dash", "😀", "a😀b",
        "\ud83d", "\ude00", "x\ud83d", "\ude00x", "\ude00\ud83d", "\ud83d\ud83d\ude00", "\u0000", "\u007f\u0080",
        "\u00a0\u2003\u2028"};

    @Test
    void shouldGiveTheIdsThePlainHashGave() throws Exception {
        for (String pipeline : EDGE_TEXTS) {
            for (String other : EDGE_TEXTS) {
                assertThat(RunIds.of(pipeline, other, "evt-1")).isEqualTo(plainRunId(pipeline, other, "evt-1"));
                assertThat(RunIds.of(pipeline, null, other)).isEqualTo(plainRunId(pipeline, null, other));
                assertThat(RunIds.of(pipeline, " ", other)).isEqualTo(plainRunId(pipeline, " ", other));
            }
        }
        assertThat(RunIds.of(null, null, null)).isEqualTo(plainRunId(null, null, null));
        assertThat(RunIds.of("p", "", null)).isEqualTo(plainRunId("p", "", null));
        SplittableRandom random = new SplittableRandom(27);
        for (int i = 0; i < 5_000; i++) {
            String pipeline = randomText(random, 12);
            String hint = random.nextInt(3) == 0 ? null : randomText(random, 40);
            String anchor = randomText(random, 20);
            assertThat(RunIds.of(pipeline, hint, anchor)).isEqualTo(plainRunId(pipeline, hint, anchor));
        }
        // a long basis: longer than the kept buffer
        String longHint = "Σ".repeat(40_000) + "😀";
        assertThat(RunIds.of("p", longHint, null)).isEqualTo(plainRunId("p", longHint, null));
    }

    @Test
    void shouldDigestTextsAddedInTurnAsTheirConcatenation() throws Exception {
        TextDigest digest = new TextDigest("SHA-1");
        SplittableRandom random = new SplittableRandom(5);
        for (int i = 0; i < 20_000; i++) {
            int parts = random.nextInt(0, 4);
            StringBuilder joined = new StringBuilder();
            for (int p = 0; p < parts; p++) {
                String part = random.nextInt(4) == 0 ? EDGE_TEXTS[random.nextInt(EDGE_TEXTS.length)]
                        : randomText(random, 10);
                digest.add(part);
                joined.append(part);
            }
            byte[] plain = MessageDigest.getInstance("SHA-1").digest(joined.toString().getBytes(StandardCharsets.UTF_8));
            int bytes = random.nextInt(0, 21);
            assertThat(digest.hex("sha1:", bytes)).as("%s", joined)
                    .isEqualTo("sha1:" + HexFormat.of().formatHex(plain, 0, bytes));
        }
    }

    /** Chars from every range UTF-8 encodes differently, surrogates (paired or not) among them. */
    static String randomText(SplittableRandom random, int maxLength) {
        char[] chars = new char[random.nextInt(0, maxLength + 1)];
        for (int i = 0; i < chars.length; i++) {
            chars[i] = switch (random.nextInt(6)) {
                case 0 -> (char) random.nextInt(0, 0x80);
                case 1 -> (char) random.nextInt(0x80, 0x800);
                case 2 -> (char) random.nextInt(0x800, 0x10000);
                case 3 -> (char) random.nextInt(0xD800, 0xDC00);
                case 4 -> (char) random.nextInt(0xDC00, 0xE000);
                default -> " \t\nab".charAt(random.nextInt(5));
            };
        }
        return new String(chars);
    }
}
