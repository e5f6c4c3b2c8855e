package io.raglog.assemble;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

class TextsTest {

    /** What norm was before it became one pass; linking must compare exactly the same strings. */
    private static String regexNorm(String s) {
        return s == null ? "" : s.toLowerCase(Locale.ROOT).replaceAll("\\s+", " ").strip();
    }

    @Test
    void shouldNormaliseExactlyAsTheRegexDid() {
        String[] samples = {null, "", " ", "\t\n", "Hello   World", "  Lead and trail \r\n", "a\u000Bb\fc",
                "non\u00A0breaking stays", "em\u2003space inside", "\u2003 leading unicode space", "trailing \u2003",
                "İstanbul ΣΟΦΙΑ", "Context:\n\nPassage 1.\n\n\nQuestion: why?  ", "x\u2028y", "tab\tand\u0085nel",
                "\u001C ASCII file separator trims\u001F", "ALL ASCII, Upper-Case @[`{ ~ \u007F"};
        for (String s : samples) {
            assertThat(Texts.norm(s)).as("%s", s).isEqualTo(regexNorm(s));
        }
        Random random = new Random(5);
        char[] alphabet = {'a', 'B', ' ', '\t', '\n', '\r', '\u000B', '\f', '\u00A0', '\u2003', '\u0085', 'É', '.', '1',
            '\u001C', 'Z', '\u007F', 'İ', 'Σ'};
        for (int i = 0; i < 5000; i++) {
            StringBuilder b = new StringBuilder();
            for (int n = random.nextInt(20); n > 0; n--) {
                b.append(alphabet[random.nextInt(alphabet.length)]);
            }
            assertThat(Texts.norm(b.toString())).as("%s", b).isEqualTo(regexNorm(b.toString()));
        }
        // every char of the Basic Multilingual Plane, surrogates and toLowerCase's special cases (İ, Σ) among them
        for (int i = 0; i < 20_000; i++) {
            StringBuilder b = new StringBuilder();
            for (int n = random.nextInt(12); n > 0; n--) {
                b.append(random.nextInt(3) == 0 ? alphabet[random.nextInt(alphabet.length)]
                        : (char) random.nextInt(Character.MAX_VALUE + 1));
            }
            assertThat(Texts.norm(b.toString())).as("%s", b).isEqualTo(regexNorm(b.toString()));
        }
        // texts longer than the per-thread buffer collapse writes into, then shorter ones again (it is reused)
        for (int length : new int[] {5000, 100, 20_000, 3, 9000}) {
            StringBuilder b = new StringBuilder();
            while (b.length() < length) {
                b.append(alphabet[random.nextInt(alphabet.length)]);
            }
            assertThat(Texts.norm(b.toString())).isEqualTo(regexNorm(b.toString()));
            String lowered = b.toString().toLowerCase(java.util.Locale.ROOT).replaceAll("\\s+", " ");
            assertThat(Texts.norm(lowered)).isEqualTo(regexNorm(lowered));
        }
    }

    @Test
    void shouldLowerEveryCharAsStringToLowerCaseDoes() {
        // each char of the Basic Multilingual Plane alone, after a cased letter and before one (the context
        // toLowerCase reads for a final sigma), and beside the chars only toLowerCase lowers right
        for (int c = 0; c <= Character.MAX_VALUE; c++) {
            String ch = String.valueOf((char) c);
            for (String s : new String[] {ch, "A" + ch, ch + "b", "Ab" + ch + " c", ch + "İ", "ΑΣ" + ch, ch + "\n"}) {
                assertThat(Texts.norm(s)).as("U+%04X in %s", c, s).isEqualTo(regexNorm(s));
            }
        }
    }

    @Test
    void shouldNormaliseMessagesAsTheirJoinedText() {
        Random random = new Random(9);
        String[] contents = {"", " ", "\n", "You answer from the context.", "Context: “Acme” — 4,100 UNITS\n\n",
            "  Lead", "trail \t", "ΣΟΦΙΑ", "İstanbul", "ab\uD83D\uDE00c", "é\u00A0É", "\u2003x\u2003"};
        for (int i = 0; i < 20_000; i++) {
            List<String> parts = new ArrayList<>();
            for (int n = random.nextInt(5); n > 0; n--) {
                parts.add(contents[random.nextInt(contents.length)]);
            }
            String joined = String.join("\n\n", parts);
            assertThat(Texts.norm(parts, "\n\n")).as("%s", parts).isEqualTo(regexNorm(joined));
        }
        String longPart = "Passage  ONE.\n".repeat(2000);
        assertThat(Texts.norm(List.of(longPart, "Question?"), "\n\n"))
                .isEqualTo(regexNorm(longPart + "\n\nQuestion?"));
    }

    /** {@link Texts#normalisedContentId} as it was: the text's UTF-8 copy, a SHA-1, the hex concatenated. */
    private static String plainContentId(String normalised) throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-1").digest(normalised.getBytes(StandardCharsets.UTF_8));
        return "sha1:" + HexFormat.of().formatHex(digest, 0, 8);
    }

    @Test
    void shouldGiveTheContentIdsThePlainHashGave() throws Exception {
        String[] samples = {"", " ", "  \t\n  ", "passage one.", "caf\u00e9 \u00ff", "σοφία", "i̇stanbul",
            "“acme” — 4,100 units", "ab\uD83D\uDE00c", "\uD83D", "\uDE00", "x\uD83D", "\uDE00\uD83D",
            "é\u00A0é", "\u2003x\u2003", "\u07ff\u0800\uffff", "Passage  ONE.\n".repeat(3000)};
        for (String s : samples) {
            assertThat(Texts.normalisedContentId(s)).as("%s", s).isEqualTo(plainContentId(s));
            assertThat(Texts.normalisedContentId(Texts.norm(s))).isEqualTo(plainContentId(Texts.norm(s)));
        }
        Random random = new Random(13);
        for (int i = 0; i < 20_000; i++) {
            char[] chars = new char[random.nextInt(30)];
            for (int k = 0; k < chars.length; k++) {
                chars[k] = random.nextBoolean() ? (char) random.nextInt(0x80)
                        : random.nextBoolean() ? (char) (0xD800 + random.nextInt(0x800)) : (char) random.nextInt(0x10000);
            }
            String s = new String(chars);
            assertThat(Texts.normalisedContentId(s)).as("%s", s).isEqualTo(plainContentId(s));
        }
    }
}
