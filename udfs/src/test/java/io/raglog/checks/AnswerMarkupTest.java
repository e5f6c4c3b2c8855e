package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What the checks read of an answer dressed in citations, lists and emphasis, and what they leave alone. */
class AnswerMarkupTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
        Warsaw [1].                                                   | Warsaw.
        Kublai Khan founded it in 1271. [Doc 1][Doc 3]                | Kublai Khan founded it in 1271.
        It was rebuilt in the 1950s [1, 3].                           | It was rebuilt in the 1950s.
        It was rebuilt in the 1950s [2-4].                            | It was rebuilt in the 1950s.
        The crew ranks first [Warsaw-43#0].                           | The crew ranks first.
        The crew ranks first.【4:0†source】                            | The crew ranks first.
        The crew ranks first (source: Yale University).               | The crew ranks first.
        Watt improved it (Sources: doc 1, doc 2).                     | Watt improved it.
        As Passage 2 says, the crew ranks first.                      | As the passage says, the crew ranks first.
        **Answer:** Warsaw was rebuilt.                               | Answer: Warsaw was rebuilt.
        """)
    void shouldReadAnAnswerWithoutItsCitationsAndEmphasis(String dressed, String claims) {
        assertThat(AnswerMarkup.stripped(dressed)).isEqualTo(claims);
    }

    @Test
    void shouldReadEachListItemAsASentenceOfItsOwnWithoutItsBulletOrIntroduction() {
        assertThat(AnswerMarkup.stripped("Key points:\n- Warsaw was rebuilt after the war\n- It is the capital"))
                .isEqualTo("Warsaw was rebuilt after the war. It is the capital");
        assertThat(AnswerMarkup.stripped("1. Warsaw\n2. Kraków")).isEqualTo("Warsaw. Kraków");
        // the numbers a list counts with are no claim; the ones it states are
        assertThat(Terms.keyTerms(AnswerMarkup.stripped("1. It opened in 1945\n2. It closed in 1989")))
                .extracting(KeyTerm::subject).containsExactlyInAnyOrder("date:1945", "date:1989");
        assertThat(Terms.keyTerms(AnswerMarkup.stripped("Warsaw [1]."))).extracting(KeyTerm::kind)
                .doesNotContain(KeyTerm.Kind.NUMBER);
    }

    @Test
    void shouldReadAStructuredAnswerByItsAnswerField() {
        assertThat(AnswerMarkup.stripped("{\"answer\": \"Warsaw was rebuilt in the 1950s.\", \"citations\": [0, 2]}"))
                .isEqualTo("Warsaw was rebuilt in the 1950s.");
        assertThat(AnswerMarkup.stripped("{\"Answer\": \"Warsaw [1].\"}")).isEqualTo("Warsaw.");
        // a JSON object with no answer field, and braces that are no JSON, stay as they are
        assertThat(AnswerMarkup.stripped("{\"city\": \"Warsaw\"}")).isEqualTo("{\"city\": \"Warsaw\"}");
        assertThat(AnswerMarkup.stripped("{not json}")).isEqualTo("{not json}");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
        Warsaw is the capital of Poland.
        The war ended in 1945 (in Europe) and the city was rebuilt.
        The treaty of 1648 (see the Peace of Westphalia) ended the war.
        Gross domestic product rose by 3.5 percent in 2019.
        It was rebuilt between 1945 and 1953.
        """)
    void shouldLeaveWhatAnAnswerClaimsAsItIs(String answer) {
        assertThat(AnswerMarkup.stripped(answer)).isEqualTo(answer);
    }
}
