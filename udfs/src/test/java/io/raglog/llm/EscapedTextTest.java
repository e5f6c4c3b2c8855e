package io.raglog.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Json;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A text escaped by the thread's kept generator is the JSON string a fresh generator writes, one text after another,
 * whatever the characters and lengths (past the generator's buffer, multi-byte characters across its edge).
 */
class EscapedTextTest {

    @Test
    void shouldEscapeAsAFreshGeneratorDoes() {
        List<String> texts = new ArrayList<>(List.of("", "a", "\"quoted\" \\ / \n\t\b\f\r \u0000 \u001f \u007f",
                "é ü € 中文 😀 \uD83D\uDE00 end", "<<<RAGLOG-DATA 0123456789ab>>>\n{\"a\":[1,2]}\n"));
        StringBuilder long1 = new StringBuilder();
        StringBuilder long2 = new StringBuilder();
        for (int i = 0; i < 9_000; i++) {
            long1.append((char) ('a' + i % 26));
            long2.append(i % 7 == 0 ? "é😀\"" : "x\n");
        }
        texts.add(long1.toString());
        texts.add(long2.toString());
        for (int round = 0; round < 3; round++) {
            for (String text : texts) {
                byte[] fresh = Json.writeBytes(json -> json.writeString(text));
                assertThat(EscapedText.of(text).quoted()).as(text).isEqualTo(fresh);
                char[] padded = ("[[" + text + "]]").toCharArray();
                assertThat(EscapedText.of(padded, 2, text.length()).quoted()).as(text).isEqualTo(fresh);
                assertThat(EscapedText.of(text).text()).isEqualTo(text);
            }
        }
    }

    /**
     * A text cut into pieces anywhere but between the halves of a pair, each piece escaped on its own, is the text
     * escaped whole: the pieces a run's messages share ({@link Prompts.RunPrompts}) rely on it. Lone halves of pairs
     * are cut next to, as a passage cut at its cap can end in one.
     */
    @Test
    void shouldEscapeATextInPiecesAsWhole() {
        String alphabet = "ab \"\\\n\r\t\b\f\u0000\u001f\u007f\u0080é\u07ff\u0800漢\uffff<>😀\ud800\udfff\u2028/";
        Random random = new Random(5);
        for (int round = 0; round < 2_000; round++) {
            StringBuilder text = new StringBuilder();
            for (int i = random.nextInt(random.nextInt(10) == 0 ? 12_000 : 300); i > 0; i--) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            char[] chars = text.toString().toCharArray();
            List<byte[]> parts = new ArrayList<>();
            int from = 0;
            while (true) {
                int to = from + 1 + random.nextInt(chars.length / 3 + 1);
                while (to < chars.length && to > 0 && Character.isHighSurrogate(chars[to - 1])
                        && Character.isLowSurrogate(chars[to])) {
                    to++;
                }
                boolean last = to >= chars.length;
                parts.add(EscapedText.piece(chars, from, last ? chars.length : to, parts.isEmpty(), last));
                if (last) {
                    break;
                }
                from = to;
            }
            EscapedText pieces = EscapedText.ofParts(parts.toArray(byte[][]::new));
            EscapedText whole = EscapedText.of(text.toString());
            assertThat(Arrays.equals(pieces.quoted(), whole.quoted())).as("round %d: %s", round, text).isTrue();
            assertThat(pieces).isEqualTo(whole).hasSameHashCodeAs(whole);
        }
    }
}
