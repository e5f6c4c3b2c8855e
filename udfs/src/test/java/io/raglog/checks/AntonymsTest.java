package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** WordNet's antonyms and the function words' opposites, in the forms a question writes them. */
class AntonymsTest {

    @ParameterizedTest(name = "{0} / {1}")
    @CsvSource({
        "first, last", "early, late", "more, fewer", "more, less", "many, few", "major, minor", "north, south",
        "increase, decrease", "win, lose", "before, after", "above, below", "inside, outside",
        // forms read by their base
        "largest, smallest", "earliest, latest", "biggest, smallest", "increased, decreased", "higher, lower",
    })
    void shouldReadOppositesEitherWay(String a, String b) {
        assertThat(Antonyms.opposite(a, b)).isTrue();
        assertThat(Antonyms.opposite(b, a)).isTrue();
    }

    @ParameterizedTest(name = "{0} / {1}")
    @CsvSource({"first, first", "large, big", "city, town", "called, named", "year, date", "early, earlier",
            "founded, established"})
    void shouldNotTakeTheSameOrAKindredWordForAnOpposite(String a, String b) {
        assertThat(Antonyms.opposite(a, b)).isFalse();
    }

    @ParameterizedTest
    @CsvSource({"more, true", "after, true", "largest, true", "capital, false", "warsaw, false"})
    void shouldKnowWhichWordsHaveAnOpposite(String word, boolean has) {
        assertThat(Antonyms.hasOpposite(word)).isEqualTo(has);
    }
}
