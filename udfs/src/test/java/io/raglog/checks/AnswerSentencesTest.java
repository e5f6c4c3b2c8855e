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

    /** The regex the scan replaced: what {@code sentences} gave before (issue #27). */
    private static List<String> byRegex(String text) {
        List<String> out = new java.util.ArrayList<>();
        for (String piece : AnswerSentences.SENTENCE_END.split(text.strip())) {
            if (!piece.isBlank()) {
                out.add(piece);
            }
        }
        return out;
    }

    @Test
    void shouldCutSentencesAndReadTheirWordsAsTheRegexDid() {
        List<String> fixed = List.of("", "   ", "One. Two! Three? four. 5 apples. \"Quoted.\" 'Single.' \u201cCurly.\u201d",
                "Ends with a point.  \n\t Next one", "U.S. Army. Dr. Who", "x.\u00a0Y nbsp is not \\s",
                "Mr. \u00c9mile and \u00e9mile. \ud835\udc00 bold capital", "a.\u000bB vertical tab. c.\fD form feed",
                "  leading and trailing.  ", "No end", "...", ". . .", "Wait?!  Yes.\r\nNo.");
        java.util.Random random = new java.util.Random(27);
        String[] pieces = {"a", "B", "1", " ", "  ", "\n", "\t", ".", "!", "?", "\"", "'", "\u201c", "\u00c9", "\u00e9",
                "\u00a0", "\u2003", "\ud835\udc00", "-", ",", "O'Neil", "4,100", "x\u000b", "\f", "\r"};
        List<String> texts = new java.util.ArrayList<>(fixed);
        for (int n = 0; n < 20_000; n++) {
            StringBuilder sb = new StringBuilder();
            for (int k = random.nextInt(30); k > 0; k--) {
                sb.append(pieces[random.nextInt(pieces.length)]);
            }
            texts.add(sb.toString());
        }
        for (String text : texts) {
            List<String> expected = byRegex(text);
            assertThat(AnswerSentences.sentences(text)).as("[%s]", text).isEqualTo(expected);
            // the index reads each sentence's words in place: the words of the sentences the regex cut
            List<String> words = new java.util.ArrayList<>();
            expected.forEach(sentence -> words.addAll(Terms.words(sentence)));
            assertThat(TextIndex.of(text).words()).as("[%s]", text).isEqualTo(words);
            assertThat(TextIndex.of(text).sentenceStems().count()).as("[%s]", text).isEqualTo(expected.size());
        }
    }
}
