package io.raglog.simulator.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.simulator.text.WordPieces;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TextEditsTest {

    @Test
    void shouldKnowTheKeysAroundAKeyOnAStaggeredQwertyBoard() {
        assertThat(TextEdits.neighbours('g').chars().sorted().toArray())
                .isEqualTo("bfhtvy".chars().sorted().toArray());
        assertThat(TextEdits.neighbours('q').chars().sorted().toArray())
                .isEqualTo("12aw".chars().sorted().toArray());
        assertThat(TextEdits.neighbours('m')).contains("n").contains("k").doesNotContain("z");
    }

    @Test
    void shouldSlipOnlyByKeyboardEdits() {
        SplittableRandom rng = new SplittableRandom(3);
        for (String word : new String[] {"Normandy", "conquered", "river", "Warsaw", "parliament"}) {
            for (int i = 0; i < 200; i++) {
                String slipped = TextEdits.typo(word, rng);
                assertThat(slipped).isNotEqualTo(word);
                assertThat(FaultInjectionTest.keyboardEdits(word, slipped)).isEqualTo(1);
            }
        }
    }

    @Test
    void shouldCutATextAtItsWordPieceBudgetEvenInsideAWord() {
        String text = "Represent this sentence for searching relevant passages: when did the Normans reach Normandy";
        int total = WordPieces.count(text);
        boolean insideAWord = false;
        for (int budget = 1; budget < total; budget++) {
            String cut = WordPieces.cut(text, budget);
            assertThat(text).startsWith(cut);
            assertThat(WordPieces.count(cut)).isLessThanOrEqualTo(budget);
            assertThat(WordPieces.count(cut)).isGreaterThan(budget - 2);
            insideAWord |= cut.length() < text.length() && Character.isLetter(text.charAt(cut.length()));
        }
        assertThat(WordPieces.cut(text, total)).isEqualTo(text);
        assertThat(insideAWord).isTrue();
    }
}
