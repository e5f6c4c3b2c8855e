package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WordPoolTest {

    @Test
    void shouldGiveTheLowerCaseCopyOfAnyRegionIncludingNonAsciiText() {
        // ASCII of both cases, letters whose lower case is context- or length-dependent ("İ", "Σ"), the Kelvin sign
        // (whose lower case is ASCII "k"), a surrogate pair
        String alphabet = "aAzZ09kK-'. İΣσςßẞ\u212AéÉ";
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 50_000; i++) {
            StringBuilder b = new StringBuilder();
            int len = random.nextInt(0, 10);
            for (int k = 0; k < len; k++) {
                if (random.nextInt(25) == 0) {
                    b.append("\uD835\uDC00");
                } else {
                    b.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            String text = b.toString();
            int start = random.nextInt(0, text.length() + 1);
            int end = random.nextInt(start, text.length() + 1);
            assertThat(WordPool.lowerCase(text, start, end)).as("[%s] %d-%d", text, start, end)
                    .isEqualTo(text.substring(start, end).toLowerCase(Locale.ROOT));
        }
    }

    @Test
    void shouldHandOutOneCopyOfAnAsciiWordWhateverItsCase() {
        String first = WordPool.lowerCase("The Revenue rose", 4, 11);
        assertThat(first).isEqualTo("revenue");
        assertThat(WordPool.lowerCase("revenue", 0, 7)).isSameAs(first);
        assertThat(WordPool.lowerCase("REVENUE!", 0, 7)).isSameAs(first);
        assertThat(WordPool.lowerCase("Déjà", 0, 4)).isEqualTo("déjà");
    }

    @Test
    void shouldStartAfreshWhenFull() {
        for (int i = 0; i <= WordPool.CAPACITY + 10; i++) {
            String word = "w" + i;
            assertThat(WordPool.lowerCase(word, 0, word.length())).isEqualTo(word);
        }
        assertThat(WordPool.lowerCase("W1", 0, 2)).isEqualTo("w1");
    }
}
