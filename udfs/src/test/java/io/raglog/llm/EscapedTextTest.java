package io.raglog.llm;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.schemas.Json;
import java.util.ArrayList;
import java.util.List;
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
}
