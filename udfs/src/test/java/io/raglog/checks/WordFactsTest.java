package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class WordFactsTest {

    @Test
    void shouldKnowAWordItWasToldOfUntilItIsFullAndStartsAfresh() {
        WordFacts facts = new WordFacts(); // not this thread's: the words below are made up
        long word = WordHash.of("reports");
        facts.put(word, "report", WordHash.of("report"), true);
        int slot = facts.slotOf(word);
        assertThat(slot).isNotNegative();
        assertThat(facts.stem(slot)).isEqualTo("report");
        assertThat(facts.stemHash(slot)).isEqualTo(WordHash.of("report"));
        assertThat(facts.isContentWord(slot)).isTrue();
        assertThat(facts.slotOf(WordHash.of("report"))).isNegative();
        facts.put(0, "x", 1, true); // a word whose hash is 0 is never kept: 0 marks an empty slot
        assertThat(facts.slotOf(0)).isNegative();
        for (long i = 1; i <= WordFacts.CAPACITY; i++) {
            facts.put(WordHash.of("w" + i), "w", i, false);
        }
        assertThat(facts.slotOf(word)).isNegative(); // dropped once full
        assertThat(facts.slotOf(WordHash.of("w" + WordFacts.CAPACITY))).isNotNegative();
    }

    @Test
    void shouldHashAnAsciiWordInPlaceAsItsLowerCaseCopy() {
        String text = "Acme's FY2023 REVENUE, déjà";
        assertThat(WordHash.ofLowerCaseAscii(text, 0, 6)).isEqualTo(WordHash.of("acme's"));
        assertThat(WordHash.ofLowerCaseAscii(text, 7, 13)).isEqualTo(WordHash.of("fy2023"));
        assertThat(WordHash.ofLowerCaseAscii(text, 14, 21)).isEqualTo(WordHash.of("revenue"));
        assertThat(WordHash.ofLowerCaseAscii(text, 23, 27)).isZero(); // not all ASCII: read as a String
    }
}
