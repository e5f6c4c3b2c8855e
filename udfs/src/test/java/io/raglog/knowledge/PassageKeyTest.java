package io.raglog.knowledge;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PassageKeyTest {

    /** PassageKey.of as it was written first (regex, a new digest, getBytes): the keys held in state are these. */
    private static String reference(String text) throws Exception {
        String normal = text.strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT);
        for (String instruction : List.of("passage:", "search_document:", "document:",
                "represent this document for retrieval:", "title: none | text:")) {
            if (normal.startsWith(instruction)) {
                normal = normal.substring(instruction.length()).strip();
                break;
            }
        }
        byte[] digest = MessageDigest.getInstance("SHA-256").digest(normal.getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(digest, 0, 8);
    }

    @Test
    void keysAreTheSameAsTheRegexAndGetBytesOnes() throws Exception {
        List<String> texts = List.of("", " ", "a", "  Lisbon's yellow trams\tclimb\n\nthe hills  ",
                "passage: The Q3 revenue was $4.2M.", "Search_Document:\u00a0x", "title: none | text:  Body",
                "Caf\u00e9 \u00c9T\u00c9 \u2014 \u201cquoted\u201d", "\u0130stanbul \u03a3\u039f\u03a3",
                "emoji \ud83d\ude00 and a lone \ud83d high and \ude00 low, trailing \ud83d",
                "\u000b\f\r\n\t mixed \u2003em space\u2003 stays", "x\u0085y\u2028z", "a \u00a0 b",
                "UPPER lower M\u00dcNCHEN stra\u00dfe", "x".repeat(70_000) + " \u00e9".repeat(10));
        for (String text : texts) {
            assertThat(PassageKey.of(text)).as(text).isEqualTo(reference(text));
        }
    }

    @Test
    void keysAreTheSameOnRandomTexts() throws Exception {
        char[] alphabet = ("aB zZ\t\n\r\u000b\f\u00a0\u00e9\u00c9\u0130\u03a3\u2014\u2003\ud83d\ude00:|"
                + "passage:document").toCharArray();
        Random random = new Random(27);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(i % 100 == 0 ? 5_000 : 40);
            if (random.nextInt(4) == 0) {
                text.append(random.nextBoolean() ? " Passage: " : "search_document:");
            }
            for (int j = 0; j < length; j++) {
                text.append(alphabet[random.nextInt(alphabet.length)]);
            }
            String t = text.toString();
            assertThat(PassageKey.of(t)).as(t).isEqualTo(reference(t));
        }
    }

    @Test
    void collapsesTheRegexWhitespaceOnly() {
        String already = "one two three";
        assertThat(PassageKey.collapseWhitespace(already)).isSameAs(already);
        assertThat(PassageKey.collapseWhitespace(" a\t\tb \n c ")).isEqualTo(" a b c ");
        assertThat(PassageKey.collapseWhitespace("a\u00a0\u2003b")).isEqualTo("a\u00a0\u2003b");
    }
}
