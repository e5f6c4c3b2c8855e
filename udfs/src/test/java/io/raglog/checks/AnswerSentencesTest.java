package io.raglog.checks;

import static io.raglog.checks.RunBuilder.*;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AnswerSentencesTest {

    private final AnswerSentences answers =
            AnswerSentences.forQuestion("What was the operating cash flow of Acme Corp in 2023?");

    @Test
    void shouldTellThePassageThatAnswersFromOnesMerelyAboutTheSubject() {
        assertThat(answers.bestIn(CASH_2023.text())).isGreaterThanOrEqualTo(AnswerSentences.ANSWERS);
        assertThat(answers.bestIn(REVENUE_2022.text())).isLessThan(AnswerSentences.ANSWERS);
        assertThat(answers.bestIn(WEATHER.text())).isZero();
        assertThat(answers.answering(List.of(REVENUE_2022, CASH_2023, WEATHER))).containsExactly(CASH_2023.id());
        // the question's words spread over several sentences answer nothing
        String scattered = "Acme Corp publishes reports. Operating teams there handle cash. "
                + "The flow of goods slowed in 2023.";
        assertThat(answers.bestIn(scattered)).isLessThan(AnswerSentences.ANSWERS);
    }

    @Test
    void shouldHalveASentenceThatOnlyRepeatsTheQuestion() {
        double echo = answers.match("The operating cash flow of Acme Corp in 2023.");
        double answer = answers.match("The operating cash flow of Acme Corp in 2023 was $4.1 billion.");
        assertThat(answer).isEqualTo(1.0);
        assertThat(echo).isEqualTo(0.5);
    }

    @Test
    void shouldFindWhereTheAnswerCameFromAndWhatItChanged() {
        List<io.raglog.schemas.Passage> context = List.of(REVENUE_2022, CASH_2023);
        AnswerSentences.Source copied = answers.sourceOf("Acme Corp's operating cash flow was $4.1 billion.", context);
        assertThat(copied.found()).isEqualTo(1.0);
        assertThat(copied.match()).isGreaterThanOrEqualTo(AnswerSentences.ANSWERS);
        assertThat(copied.missing()).isZero();
        // a swapped figure leaves one word of the answer missing from its source sentence
        AnswerSentences.Source swapped = answers.sourceOf("Acme Corp's operating cash flow was $5.7 billion.", context);
        assertThat(swapped.missing()).isEqualTo(1);
        // an answer taken from a sentence that does not answer the question
        AnswerSentences.Source wrongPlace = answers.sourceOf("12%, driven by its cloud segment.", context);
        assertThat(wrongPlace.found()).isEqualTo(1.0);
        assertThat(wrongPlace.match()).isLessThan(AnswerSentences.ANSWERS);
    }
}
