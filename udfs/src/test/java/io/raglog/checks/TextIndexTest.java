package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TextIndexTest {

    private static final List<String> TEXTS = List.of(
            "Acme Corp. reported revenue of $4,100 million in FY2023, up 4.10% on Q3.",
            "The Phags-pa script was adopted in 1269; Al-Hasa lies east.\nIBM and eBay, iPhone: May 5th.",
            "", "12,5 and 0.50 and 1,000,000.", "Stop. New York's mayor met O'Neil & Sons on Monday, 3 March 1999.",
            "ends with a number 42", "7 starts with one", "déjà vu — Σοφία 2024",
            "  He said \"No.\" 1999 was late!  Was it? “Yes.” 'Maybe'. U.S. Army's rank-and-file\tmet.\n\nEnd",
            "Dr. Who? x-ray... 3.5. 4,100. Q3! ’Tis Phags-pa's.");

    @Test
    void shouldReadATextSentenceBySentenceAsItReadsTheWholeText() {
        for (String t : TEXTS) {
            TextIndex index = TextIndex.of(t);
            assertThat(index.words()).as(t).isEqualTo(Terms.words(t));
            // each sentence's stems as AnswerSentences reads a question: the content words' stems, name parts split
            List<String> sentences = AnswerSentences.sentences(t);
            SentenceStems stems = index.sentenceStems();
            assertThat(stems.count()).as(t).isEqualTo(sentences.size());
            for (int i = 0; i < sentences.size(); i++) {
                long[] expected = AnswerSentences.forQuestion(sentences.get(i)).questionStems().stream()
                        .mapToLong(WordHash::of).sorted().toArray();
                assertThat(stems.stemsOf(i)).as(sentences.get(i)).isEqualTo(expected);
                assertThat(stems.size(i)).isEqualTo(expected.length);
            }
        }
        assertThat(TextIndex.of(TEXTS.get(8)).sentenceStems().count()).isGreaterThan(5);
    }

    @Test
    void shouldIndexSeveralTextsAsTheirNewlineJoinedText() {
        for (int from = 0; from < TEXTS.size(); from++) {
            for (int to = from; to <= TEXTS.size(); to++) {
                List<String> texts = new ArrayList<>(TEXTS.subList(from, to));
                if (from == 1) {
                    texts.add(null);
                }
                TextIndex joined = TextIndex.of(String.join("\n", texts.stream().map(t -> t == null ? "" : t)
                        .toList()));
                // the same texts as passages, and read as two lists, one of them passages, then put together
                int half = texts.size() / 2;
                for (TextIndex merged : List.of(TextIndex.ofAll(texts), TextIndex.ofPassages(texts),
                        TextIndex.ofPassages(texts.subList(0, half)).and(TextIndex.ofAll(texts.subList(half,
                                texts.size()))))) {
                    assertIndexesAlike(merged, joined, texts);
                }
            }
        }
    }

    private static void assertIndexesAlike(TextIndex merged, TextIndex joined, List<String> texts) {
        assertThat(merged.text()).isEqualTo(joined.text());
        assertThat(merged.words()).isEqualTo(joined.words());
        assertThat(merged.wordSet()).isEqualTo(joined.wordSet());
        assertThat(merged.numbers()).containsExactlyInAnyOrderElementsOf(joined.numbers());
        for (String t : TEXTS) {
            for (KeyTerm term : Terms.keyTerms(t)) {
                assertThat(merged.contains(term)).as("%s in %s", term, texts).isEqualTo(joined.contains(term));
            }
            for (String w : Terms.words(t)) {
                assertThat(merged.hasWord(w)).isEqualTo(joined.hasWord(w));
            }
        }
    }

    @Test
    void shouldHoldAWordWhenItOrAWordOfTheSameStemIsInTheText() {
        List<String> probes = new ArrayList<>(List.of("", "absent", "reports", "reporting", "o'neil's", "pa", "yorks"));
        TEXTS.forEach(t -> probes.addAll(Terms.words(t)));
        for (String t : TEXTS) {
            TextIndex index = TextIndex.of(t);
            java.util.Set<String> words = index.wordSet();
            java.util.Set<String> stems = new java.util.HashSet<>();
            words.forEach(w -> stems.add(Terms.stem(w)));
            for (String probe : probes) {
                assertThat(index.hasWord(probe)).as("%s in %s", probe, t)
                        .isEqualTo(words.contains(probe) || stems.contains(Terms.stem(probe)));
            }
        }
    }

    @Test
    void shouldHoldANumberAKeywordRewriterSplitIntoItsDigitGroups() {
        TextIndex split = TextIndex.of("results work required pump consume only 0 5 turbine power 4 100 cars");
        assertThat(split.contains(number("0.5"))).isTrue();
        assertThat(split.contains(number("4,100"))).isTrue();
        // a group missing, or a number of one group, is not held by its digits alone
        assertThat(split.contains(number("0.55"))).isFalse();
        assertThat(TextIndex.of("only 5 of them").contains(number("0.5"))).isFalse();
        assertThat(TextIndex.of("0 and 5").contains(number("05"))).isFalse();
        assertThat(TextIndex.of("consume only 0.5 of it").contains(number("0.5"))).isTrue();
    }

    private static KeyTerm number(String surface) {
        return new KeyTerm(KeyTerm.Kind.NUMBER, surface, Terms.normaliseNumber(surface));
    }

    @Test
    void shouldHoldANameWhenEveryPartTheRegexSplitsItIntoIsAWord() {
        java.util.regex.Pattern parts = java.util.regex.Pattern.compile("[\\s\\-'’&]+"); // as contains split, before
        String alphabet = "pa  pa -'’&\t\n\u000b\f\r\u00a0x";
        java.util.SplittableRandom random = new java.util.SplittableRandom(9);
        TextIndex index = TextIndex.ofAll(TEXTS);
        int held = 0;
        for (int i = 0; i < 20_000; i++) {
            StringBuilder b = new StringBuilder();
            int len = random.nextInt(0, 14);
            for (int k = 0; k < len; k++) {
                b.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String name = b.toString();
            boolean expected = java.util.Arrays.stream(parts.split(name)).allMatch(p -> p.isEmpty() || index.hasWord(p));
            assertThat(index.contains(new KeyTerm(KeyTerm.Kind.NAME, name, name))).as(name).isEqualTo(expected);
            held += expected ? 1 : 0;
        }
        assertThat(held).as("names held").isBetween(1_000, 19_000);
    }

    @Test
    void shouldKeepPassagesApartFromTheRunsOwnTexts() {
        TextIndex passage = TextIndex.ofPassage(TEXTS.get(1));
        TextIndex question = TextIndex.of(TEXTS.get(1));
        assertThat(question).isNotSameAs(passage); // the same text, read for each memo once
        for (int i = 0; i < 20_000; i++) { // many runs' new questions and answers, each read once
            TextIndex.of("what happened in " + i + "?");
        }
        assertThat(TextIndex.ofPassage(new String(TEXTS.get(1)))).isSameAs(passage);
        assertThat(TextIndex.of(new String(TEXTS.get(1)))).isNotSameAs(question);
    }

    @Test
    void shouldHandOutTheSameIndexForTheSameTextWithoutLettingItChange() {
        TextIndex first = TextIndex.of(TEXTS.get(0));
        assertThat(TextIndex.of(new String(TEXTS.get(0)))).isSameAs(first);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> first.words().add("x"))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
