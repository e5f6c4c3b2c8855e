package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class TermsTest {

    /** The definition {@link Terms#words} scans for instead of matching. */
    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+(?:[.,'’&-][\\p{L}\\p{N}]+)*");

    /** The definition {@link Terms#numbers} scans for, normalised as it does. */
    private static final Pattern NUMBER = Pattern.compile("(?<![\\p{L}\\p{N}.,])\\d+(?:[.,]\\d+)*");

    private static Set<String> regexNumbers(String text) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = NUMBER.matcher(text);
        while (m.find()) {
            out.add(Terms.normaliseNumber(m.group()));
        }
        return out;
    }

    private static List<String> regexWords(String text) {
        List<String> out = new ArrayList<>();
        Matcher m = WORD.matcher(text);
        while (m.find()) {
            out.add(m.group().toLowerCase(Locale.ROOT));
        }
        return out;
    }

    @Test
    void shouldFindTheWordsTheRegexFinds() {
        List<String> texts = List.of("", "a", "4,100 and 4.10% in FY2023.", "O'Neil & Sons, Phags-pa -- x-", "end.",
                "trailing joiner, ", "..,,''--&&", "New York's mayor", "déjà vu — Σοφία 2024; Ⅻ ½ ²",
                "𝐀𝐁𝐂 math letters, emoji 😀-x, x-😀", "1.2.3,4'5’6&7-8", "A&B&&C", "tab\tand\nnewline",
                "Straße İstanbul ǅ", "a-\uD835\uDC00", "x1 1x 1.5.6 .5 ,5 1,,2 1..2 12,5 0.50 1,000,000.",
                "\uD835\uDC001 ½2 1½ 3.", "2024");
        for (String t : texts) {
            assertThat(Terms.words(t)).as(t).isEqualTo(regexWords(t));
            assertThat(Terms.numbers(t)).as(t).containsExactlyElementsOf(regexNumbers(t));
        }
    }

    @Test
    void shouldFindTheWordsTheRegexFindsInRandomText() {
        String alphabet = "aZ0919 .,'’&-\n\t!?()éΣ½Ⅻ²—";
        String[] astral = {"\uD835\uDC00", "\uD83D\uDE00"}; // a mathematical letter, an emoji
        SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 20_000; i++) {
            StringBuilder b = new StringBuilder();
            int len = random.nextInt(0, 24);
            for (int k = 0; k < len; k++) {
                if (random.nextInt(20) == 0) {
                    b.append(astral[random.nextInt(astral.length)]);
                } else {
                    b.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            String t = b.toString();
            assertThat(Terms.words(t)).as(t).isEqualTo(regexWords(t));
            assertThat(Terms.numbers(t)).as(t).containsExactlyElementsOf(regexNumbers(t));
        }
    }
}
