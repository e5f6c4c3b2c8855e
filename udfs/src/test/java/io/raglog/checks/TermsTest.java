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

    /** The definition {@link Terms#tokenBounds} scans for: the tokens months and names are read from. */
    private static final Pattern TOKEN = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}&'’.-]*");

    private static List<String> matches(Pattern pattern, String text) {
        List<String> out = new ArrayList<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            out.add(m.group());
        }
        return out;
    }

    private static List<String> tokens(String text) {
        int[] bounds = Terms.tokenBounds(text);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < bounds.length; i += 2) {
            out.add(text.substring(bounds[i], bounds[i + 1]));
        }
        return out;
    }

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
            assertThat(Terms.rawNumbers(t)).as(t).isEqualTo(matches(NUMBER, t));
            assertThat(tokens(t)).as(t).isEqualTo(matches(TOKEN, t));
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
            assertThat(Terms.rawNumbers(t)).as(t).isEqualTo(matches(NUMBER, t));
            assertThat(tokens(t)).as(t).isEqualTo(matches(TOKEN, t));
        }
    }

    @Test
    void shouldReadContentStemsInOneScanAsFromTheContentWords() {
        String alphabet = "the revenue flows of Acme's companies in 2023 Q3 AT&T Phags-pa é ’ . , \n";
        SplittableRandom random = new SplittableRandom(7);
        for (int i = 0; i < 5_000; i++) {
            StringBuilder b = new StringBuilder();
            int words = random.nextInt(0, 30);
            for (int k = 0; k < words; k++) {
                int from = random.nextInt(alphabet.length());
                b.append(alphabet, from, Math.min(alphabet.length(), from + random.nextInt(1, 12))).append(' ');
            }
            String t = b.toString() + i; // a text not read before, so the memo cannot answer
            List<String> expected = Terms.contentWords(t).stream().map(Terms::stem).distinct().toList();
            assertThat(Terms.contentStems(t)).as(t).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void shouldTrimANameTokenAsTheRegexesDid() {
        for (String token : allStrings("As.'’x", 6)) {
            assertThat(Terms.nameToken(token)).as(token)
                    .isEqualTo(token.replaceAll("[.'’]+$", "").replaceAll("['’]s$", ""));
        }
    }

    @Test
    void shouldNormaliseANumberAsTheRegexesDid() {
        for (String number : allStrings("01.,", 8)) {
            assertThat(Terms.normaliseNumber(number)).as(number).isEqualTo(regexNormalisedNumber(number));
        }
    }

    @Test
    void shouldTellQuartersAndFiscalYearsAsTheRegexDid() {
        Pattern quarterOrFiscalYear = Pattern.compile("[Qq][1-4]|FY\\d+");
        for (String token : allStrings("QqFY05x٣", 5)) {
            assertThat(Terms.isQuarterOrFiscalYear(token)).as(token)
                    .isEqualTo(quarterOrFiscalYear.matcher(token).matches());
        }
    }

    @Test
    void shouldStemAWordTheSameWhetherOrNotItWasStemmedBefore() {
        List<String> words = List.of("companies", "flows", "flow", "running", "located", "acme's", "acme’s", "bus",
                "glass", "ies", "studies", "sing", "bed", "news", "data");
        List<String> first = words.stream().map(Terms::stem).toList();
        assertThat(first).containsExactly("company", "flow", "flow", "runn", "locat", "acme", "acme", "bus",
                "glass", "ies", "study", "sing", "bed", "new", "data");
        assertThat(words.stream().map(Terms::stem).toList()).isEqualTo(first);
    }

    @Test
    void shouldStemEveryWordAsTheSuffixRulesDoWhateverItEndsWith() {
        String alphabet = "adeginsuy'’"; // the letters the rules look at, and others
        SplittableRandom random = new SplittableRandom(3);
        for (int i = 0; i < 50_000; i++) {
            StringBuilder b = new StringBuilder();
            int len = random.nextInt(0, 9);
            for (int k = 0; k < len; k++) {
                b.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String word = b.toString();
            assertThat(Terms.stem(word)).as(word).isEqualTo(referenceStem(word));
        }
    }

    /** The suffix rules as {@link Terms#stem} applied them to every word, frozen. */
    private static String referenceStem(String lowerWord) {
        String w = lowerWord;
        if (w.endsWith("'s") || w.endsWith("’s")) {
            w = w.substring(0, w.length() - 2);
        }
        if (w.length() > 4 && w.endsWith("ies")) {
            return w.substring(0, w.length() - 3) + "y";
        }
        if (w.length() > 5 && w.endsWith("ing")) {
            return w.substring(0, w.length() - 3);
        }
        if (w.length() > 4 && w.endsWith("ed")) {
            return w.substring(0, w.length() - 2);
        }
        if (w.length() > 3 && w.endsWith("s") && !w.endsWith("ss") && !w.endsWith("us")) {
            return w.substring(0, w.length() - 1);
        }
        return w;
    }

    @Test
    void shouldFindMonthsWhateverTheWordsLength() {
        String[] words = {"May", "may", "MAY.", "Sept.", "sept", "September", "Septembers", "Dec", "dec.", "Ju",
            "İMay", "Mayİ", "Kjun", "\u212Aan", "Jan-Feb", "March's", "Ma", "Oct.", "Octo", "August.", "Augustus",
            "AT&T", "1999", "Q3"};
        SplittableRandom random = new SplittableRandom(13);
        for (int i = 0; i < 5_000; i++) {
            StringBuilder text = new StringBuilder();
            for (int k = random.nextInt(1, 6); k > 0; k--) {
                text.append(words[random.nextInt(words.length)]).append(random.nextBoolean() ? " " : ". ");
            }
            List<String> months = Terms.keyTerms(text.toString()).stream()
                    .filter(t -> t.kind() == KeyTerm.Kind.DATE && Character.isLetter(t.norm().charAt(0))
                            && !t.norm().matches("q[1-4]"))
                    .map(KeyTerm::norm).toList();
            assertThat(months).as("%s", text).isEqualTo(monthsAsBefore(text.toString()));
        }
    }

    /** The months {@link Terms#keyTerms} found before it skipped words of no month's length. */
    private static List<String> monthsAsBefore(String text) {
        java.util.Map<String, String> names = new java.util.HashMap<>();
        for (String m : List.of("january", "february", "march", "april", "may", "june", "july", "august",
                "september", "october", "november", "december")) {
            names.put(m, m);
            names.put(m.substring(0, 3), m);
        }
        names.put("sept", "september");
        Set<String> out = new LinkedHashSet<>();
        Matcher w = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}&'’.-]*").matcher(text);
        while (w.find()) {
            String token = w.group().endsWith(".") ? w.group().substring(0, w.group().length() - 1) : w.group();
            String lower = token.toLowerCase(Locale.ROOT);
            String month = names.get(lower);
            if (month != null && (Character.isUpperCase(token.charAt(0)) || !lower.equals("may"))) {
                out.add(month);
            }
        }
        return new ArrayList<>(out);
    }

    /** {@link Terms#normaliseNumber} as it was written with regexes, compiled on every call. */
    private static String regexNormalisedNumber(String raw) {
        String n = raw;
        if (n.matches("\\d{1,3}(?:,\\d{3})+(?:\\.\\d+)?")) {
            n = n.replace(",", "");
        } else if (n.matches("\\d+,\\d{1,2}")) {
            n = n.replace(',', '.');
        } else {
            n = n.replace(",", "");
        }
        if (n.indexOf('.') >= 0) {
            n = n.replaceAll("0+$", "").replaceAll("\\.$", "");
        }
        return n.isEmpty() ? "0" : n;
    }

    /** Every string of the alphabet's characters up to the length, the empty one included. */
    private static List<String> allStrings(String alphabet, int maxLength) {
        List<String> out = new ArrayList<>(List.of(""));
        List<String> previous = List.of("");
        for (int len = 1; len <= maxLength; len++) {
            List<String> longer = new ArrayList<>();
            for (String s : previous) {
                for (char c : alphabet.toCharArray()) {
                    longer.add(s + c);
                }
            }
            out.addAll(longer);
            previous = longer;
        }
        return out;
    }
}
