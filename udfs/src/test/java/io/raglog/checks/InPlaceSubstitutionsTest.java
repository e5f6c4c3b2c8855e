package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.checks.ContentWords.Substitution;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Question words a rewrite replaced where they stood, with the bundled model for the words' meaning: the replacements
 * a set of lost and added words misses, and the rewrites that replace nothing (keyword queries, paraphrases, added
 * context, reordering).
 */
class InPlaceSubstitutionsTest {

    private static MiniLmEmbedder model;

    @BeforeAll
    static void load() {
        model = new MiniLmEmbedder();
    }

    @AfterAll
    static void close() {
        model.close();
    }

    private static List<String> replaced(String question, String rewrite) {
        return InPlaceSubstitutions.of(question, List.of(rewrite), model).stream()
                .map(s -> s.asked() + "->" + s.written()).toList();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
        // opposites sit close in the embedding space; small words ("more", "after") are no content words
        "In what types of organisms did the adaptive immune system first evolve?"
                + "|In what types of organisms did the adaptive immune system last evolve?|first->last",
        "What becomes more adept at producing vitamin D as a person ages?"
                + "|What exactly becomes fewer adept at producing vitamin D as a person ages?|more->fewer",
        "After 2007 how much do students from families earning less than $60,000 pay?"
                + "|before 2007 how much do students from families earning less than $60,000 pay?|after->before",
        "Why did Harvard end its early admission program?"
                + "|What is the reason did Harvard end its late admission program?|early->late",
        "Which is the largest city of Poland?|smallest city Poland|largest->smallest",
        // the replaced word stands elsewhere in the question, so no word of it is lost
        "What is a mechanical barrier in insects that protects the insect?"
                + "|Tell me what is a mechanical barrier in minister that protects the insect|insects->minister",
        "What does the Zacheta National Gallery of Art organize exhibitions of art from?"
                + "|Zacheta National Gallery Ansbach organize exhibitions art|art->ansbach",
        // a keyword query drops the small words around the replaced one
        "How much temperature is consumed by the pump while the work fluid is condensed?"
                + "|much temperature consumed pump curvature work fluid condensed|while->curvature",
        "In a nuclear power plant, what is the steam turbine connected to?"
                + "|nuclear regatta plant steam turbine connected|power->regatta",
    })
    void shouldFindAWordReplacedWhereItStood(String question, String rewrite, String expected) {
        assertThat(replaced(question, rewrite)).containsExactly(expected);
    }

    @ParameterizedTest(name = "{1}")
    @CsvSource(delimiter = '|', value = {
        "When did Warsaw become the capital of the Kingdom of Prussia?|Warsaw become capital Prussia",
        "Why did Harvard end its early admission program?|What is the reason Harvard ended its early admission?",
        "What is the largest city in Poland?|What is the biggest city in Poland?",
        "Where is the Vistula river located?|Vistula river location",
        "Who founded the Yuan dynasty?|Yuan dynasty founder",
        "What year was the university founded?|university founded year date establishment",
        "What is the capital city of France?|France capital city",
        "How many people live in Warsaw?|Warsaw population",
        "What did the Normans do after 1066?|Normans after 1066 events Norman conquest England",
        // "many" is a small word, read for its opposite only: "how many" written "number of" replaces nothing
        "How many protestants live in France today?|number protestants live France today",
    })
    void shouldFindNothingInARewriteThatKeepsTheQuestion(String question, String rewrite) {
        assertThat(replaced(question, rewrite)).isEmpty();
    }

    @Test
    void shouldReadAHypotheticalAnswerByItsRestatement() {
        // the background sentence says "first" again: the restatement's "last" is what the rewrite asks
        String hyde = "The adaptive immune system last evolved in early vertebrates of some kind. The first immune"
                + " systems were innate and evolved in the first multicellular organisms.";
        assertThat(replaced("In what organisms did the adaptive immune system first evolve?", hyde))
                .containsExactly("first->last");
    }

    @Test
    void shouldCountTheOppositesApartFromWordsOfAnotherMeaning() {
        List<Substitution> opposite = InPlaceSubstitutions.of("What was the first Yuan capital?",
                List.of("What was the last Yuan capital?"), model);
        assertThat(opposite).singleElement().satisfies(s -> assertThat(s.similarity()).isEqualTo(1.0));
        assertThat(InPlaceSubstitutions.opposites(opposite)).isEqualTo(1);
        List<Substitution> other = InPlaceSubstitutions.of("What was the first Yuan capital?",
                List.of("What was the first Yuan regatta?"), model);
        assertThat(other).extracting(Substitution::written).containsExactly("regatta");
        assertThat(InPlaceSubstitutions.opposites(other)).isZero();
    }

    @Test
    void shouldAlignWordsInAnyFormAndKeepOnlyGapsWithWordsOnBothSides() {
        assertThat(InPlaceSubstitutions.gaps(Terms.words("who founded the dynasty"),
                Terms.words("who founder the dynasties"))).isEmpty();
        assertThat(InPlaceSubstitutions.gaps(Terms.words("who founded the dynasty"),
                Terms.words("who built the dynasty"))).containsExactly(new WordAlignment.Gap(1, 2, 1, 2));
    }
}
