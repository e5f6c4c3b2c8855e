package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class AnswerTypeTest {

    @Test
    void theOpeningQuestionWordSaysTheKindAsked() {
        assertThat(AnswerType.asked("When was Harvard founded?")).isEqualTo(AnswerType.TIME);
        assertThat(AnswerType.asked("In what year was the atmospheric engine invented?")).isEqualTo(AnswerType.TIME);
        assertThat(AnswerType.asked("About how many Huguenots emigrated?")).isEqualTo(AnswerType.COUNT);
        assertThat(AnswerType.asked("How long does a division take?")).isEqualTo(AnswerType.DURATION);
        assertThat(AnswerType.asked("What percentage of electricity came from steam?")).isEqualTo(AnswerType.COUNT);
    }

    @Test
    void theFirstQuestionWordAnywhereSaysTheKindAReAskAsksFor() {
        assertThat(AnswerType.of("In what year was Harvard founded?")).isEqualTo(AnswerType.TIME);
        assertThat(AnswerType.of("Which person founded Harvard?")).isEqualTo(AnswerType.PERSON);
        assertThat(AnswerType.of("What number of students attend Harvard?")).isEqualTo(AnswerType.COUNT);
        assertThat(AnswerType.of("What did Harvard found?")).isNull();
    }

    @Test
    void aQuestionWordInsideTheQuestionAsksNothingOfTheAnswer() {
        // "when" joins two clauses here; the question asks for a thing
        assertThat(AnswerType.asked("What experiences acceleration when a force is applied?")).isNull();
        assertThat(AnswerType.asked("Harvard was founded when?")).isNull();
        // an opening "when" clause sets the scene; what follows its comma asks
        assertThat(AnswerType.asked("When forces act on an extended body, what do you need to account for?"))
                .isNull();
        assertThat(AnswerType.asked("When steam is scarce, how many engines run?")).isEqualTo(AnswerType.COUNT);
        assertThat(AnswerType.asked("When extensive time is required to sort integers, this represents what case?"))
                .isNull();
        // with no question word after the comma, the opening word still asks
        assertThat(AnswerType.asked("When, after the war, was Warsaw rebuilt?")).isEqualTo(AnswerType.TIME);
        // the re-ask reading still takes it: people type "founded when" into a search box
        assertThat(AnswerType.of("harvard was founded when")).isEqualTo(AnswerType.TIME);
    }

    @Test
    void aCountIsShownByANumberInDigitsOrWords() {
        assertThat(AnswerType.COUNT.shownBy("About 50,000.")).isTrue();
        assertThat(AnswerType.COUNT.shownBy("Several hundred.")).isTrue();
        assertThat(AnswerType.COUNT.shownBy("The Walloons.")).isFalse();
        // a word of time is not a count
        assertThat(AnswerType.COUNT.shownBy("In the sixteenth century.")).isFalse();
    }

    @Test
    void aTimeIsShownByANumberOrAWordOfTime() {
        assertThat(AnswerType.TIME.shownBy("1712.")).isTrue();
        assertThat(AnswerType.TIME.shownBy("During the Yuan dynasty.")).isTrue();
        assertThat(AnswerType.TIME.shownBy("Every Thursday.")).isTrue();
        assertThat(AnswerType.TIME.shownBy("Watt's.")).isFalse();
        assertThat(AnswerType.DURATION.shownBy("Seconds.")).isTrue();
    }

    @Test
    void kindsWhoseFormWordsCannotShowAreNotRead() {
        assertThat(AnswerType.PERSON.shownBy("The elected MSPs.")).isNull();
        assertThat(AnswerType.REASON.shownBy("Jalayir.")).isNull();
    }
}
