package io.raglog.checks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ContrastsTest {

    private static boolean against(String question, String sentence) {
        return Contrasts.against(Contrasts.of(question), Contrasts.of(sentence));
    }

    @Test
    void aNegatedQuestionIsNotAnsweredByASentenceWithoutTheNegation() {
        String question = "What Chinese system did Kublai's government not compromise with?";
        assertThat(against(question, "Kublai's government compromised with the Confucian system.")).isTrue();
        assertThat(against(question, "His government did not compromise with the Confucian system.")).isFalse();
        assertThat(against(question, "Kublai's government didn't compromise with the Confucian system.")).isFalse();
        // a negation the question does not have turns nothing
        assertThat(against("What system did Kublai's government compromise with?",
                "It never compromised with the Confucian system.")).isFalse();
    }

    @Test
    void aSentenceWithTheOppositeOfTheQuestionsWordAndNotTheWordIsTurnedAgainstIt() {
        assertThat(against("Which is the least populated district?", "Wola is the most populated district.")).isTrue();
        assertThat(against("Which is the least populated district?", "Wola is the least populated district."))
                .isFalse();
        // the sentence that has both words may well answer
        assertThat(against("Which is the least populated district?",
                "Wola is the least populated district and Mokotów the most.")).isFalse();
        // a question with both words of a pair is turned by neither
        assertThat(against("What came first, before or after the war?", "After the war came the plan.")).isFalse();
    }

    @Test
    void aTextsMarksAreReadFromItsPassageIndexAsFromItsWords() {
        String passage = "Kublai compromised with the Confucian system. It did not abolish the most senior posts.";
        SentenceStems sentences = TextIndex.ofPassage(passage).sentenceStems();
        assertThat(sentences.count()).isEqualTo(2);
        assertThat(sentences.marks(0)).isEqualTo(Contrasts.of("Kublai compromised with the Confucian system."));
        assertThat(sentences.marks(1)).isEqualTo(Contrasts.of("It did not abolish the most senior posts."))
                .isNotZero();
        assertThat(sentences.marks(0)).isZero();
    }

    @Test
    void aTurnedSentenceAnswersLessThanTheSameWordsUnturned() {
        AnswerSentences negated = AnswerSentences.forQuestion("What system did Kublai's government not compromise with?");
        double turned = negated.bestIn("Kublai's government did compromise with the Confucian system of rule.");
        double kept = negated.bestIn("Kublai's government did not compromise with the Confucian system of rule.");
        assertThat(turned).isEqualTo(kept * AnswerSentences.TURNED);
        assertThat(kept).isGreaterThanOrEqualTo(AnswerSentences.ANSWERS);
        assertThat(turned).isLessThan(AnswerSentences.ANSWERS);
        assertThat(negated.match("Kublai's government did compromise with the Confucian system of rule.")).isEqualTo(turned);
    }

    @Test
    void aPassageWithoutTheNumberOrOrdinalTheQuestionNamesAnswersItInNoSentence() {
        AnswerSentences fourth = AnswerSentences.forQuestion("What did Genghis Khan's fourth son inherit?");
        String third = "Genghis Khan's third son inherited the eastern lands of the empire.";
        String named = "Genghis Khan's fourth son inherited the eastern lands of the empire.";
        assertThat(fourth.bestIn(named)).isGreaterThanOrEqualTo(AnswerSentences.ANSWERS);
        assertThat(fourth.bestIn(third)).isLessThan(AnswerSentences.ANSWERS);
        AnswerSentences year = AnswerSentences.forQuestion("Which treaty did Warsaw sign in 1832?");
        assertThat(year.bestIn("In 1831 Warsaw signed the treaty of Paris with its neighbours."))
                .isLessThan(AnswerSentences.ANSWERS);
        assertThat(year.bestIn("In 1832 Warsaw signed the treaty of Paris with its neighbours."))
                .isGreaterThanOrEqualTo(AnswerSentences.ANSWERS);
        // a name the passage spells otherwise still reads as the question's words do
        assertThat(AnswerSentences.forQuestion("What did Kublai inherit from his father?")
                .bestIn("Kublai inherited the throne from his father in 1260.")).isGreaterThanOrEqualTo(AnswerSentences.ANSWERS);
    }

    @Test
    void whatTurnsASentenceIsSaidForAReader() {
        assertThat(Contrasts.why(Contrasts.of("Which district is not the most populated?"),
                Contrasts.of("Wola is the most populated district."))).isEqualTo("it lacks the question's 'not'");
        assertThat(Contrasts.why(Contrasts.of("Which is the least populated district?"),
                Contrasts.of("Wola is the most populated district.")))
                .isEqualTo("it says 'most' where the question says 'least'");
        assertThat(Contrasts.why(Contrasts.of("Which is the least populated district?"),
                Contrasts.of("Wola is the least populated district."))).isNull();
    }
}
