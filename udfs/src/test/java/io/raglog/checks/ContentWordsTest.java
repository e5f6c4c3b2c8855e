package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What a rewrite lost and added, read from the part of it that restates the question. */
class ContentWordsTest {

    private static final String QUESTION = "What are the agents detected by the immune system called?";

    @Test
    void shouldReadAHypotheticalAnswerByItsRestatementNotItsBackground() {
        // the background sentence repeats "immune": read whole, the swap in the restatement would hide behind it
        String swapped = "The agents detected by the refer system called are something specific. The immune system "
                + "is a system of many biological structures and processes within an organism.";
        ContentWords words = ContentWords.of(QUESTION, List.of(swapped));
        assertThat(words.lost()).containsExactly("immune");
        assertThat(words.added()).contains("refer").doesNotContain("biological", "organism");
    }

    @Test
    void shouldFindNothingLostInASoundHypotheticalAnswer() {
        String sound = "The agents detected by the immune system called are something specific. The immune system "
                + "is a system of many biological structures and processes within an organism.";
        assertThat(ContentWords.of(QUESTION, List.of(sound)).lost()).isEmpty();
    }

    @Test
    void shouldTakeTheRestatementOverABackgroundThatRepeatsTheSubject() {
        String sound = "A figure known from the record has elected the President of Centrum since 1990. In the years"
                + " of 1994–1999 the mayor of the district Centrum automatically was designated as the President of"
                + " Warsaw: the mayor of Centrum was elected by the district council of Centrum.";
        ContentWords words = ContentWords.of("Who has elected the President of Centrum since 1990?", List.of(sound));
        assertThat(words.lost()).isEmpty();
        assertThat(words.added()).doesNotContain("mayor", "district", "council");
    }

    @Test
    void shouldReadAKeywordQueryWhole() {
        // "U.S." ends a "sentence" of one word: no passage of sentences, so the query is read whole
        ContentWords words = ContentWords.of("Which U.S. Navy ships were built in Boston?",
                List.of("U.S. Navy ships built Boston"));
        assertThat(words.lost()).isEmpty();
        assertThat(words.added()).isEmpty();
    }

    @Test
    void shouldReadEachRewriteOfSeveralByItsOwnRestatement() {
        String other = "Immune agents detection names list.";
        String swapped = "The agents detected by the refer system called are something specific. The immune system "
                + "is a system of many biological structures and processes within an organism.";
        // another rewrite that keeps "immune" means the question's word survived somewhere
        assertThat(ContentWords.of(QUESTION, List.of(swapped, other)).lost()).isEmpty();
    }

    @Test
    void shouldTellEachLostWordOnceByTheWordWrittenNearestIt() {
        List<ContentWords.Substitution> found = List.of(new ContentWords.Substitution("shi", "exactly", 0.12),
                new ContentWords.Substitution("shi", "t'ien-tse", 0.31),
                new ContentWords.Substitution("began", "ended", 0.40));

        assertThat(ContentWords.nearestPerAskedWord(found)).extracting(ContentWords.Substitution::written)
                .containsExactly("t'ien-tse", "ended");
    }
}
