package io.raglog.reask;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class QuestionSimilarityTest {

    private static final String ASKED = "When was the first steam engine built in England?";

    @Test
    void shouldScoreTheSameQuestionInOtherWordsHigh() {
        assertThat(QuestionSimilarity.lexical("what year was the first steam engine constructed in England",
                ASKED)).isGreaterThan(0.6);
        assertThat(QuestionSimilarity.lexical("I mean, when was the first steam engnie built in England?", ASKED))
                .as("a typo and a lead-in").isGreaterThan(0.8);
        assertThat(QuestionSimilarity.lexical("first steam engine built?", ASKED)).as("a shorter form")
                .isGreaterThan(0.6);
    }

    @Test
    void shouldScoreAnotherQuestionOnTheSameTopicLow() {
        assertThat(QuestionSimilarity.lexical("Who improved the steam engine in Scotland?", ASKED)).isLessThan(0.45);
        assertThat(QuestionSimilarity.lexical("How did the Normans treat the English nobility?", ASKED)).isZero();
    }

    @Test
    void shouldTellASwappedNameNumberOrNegationFromAParaphrase() {
        double same = QuestionSimilarity.lexical("When was the first steam engine built in England?", ASKED);
        assertThat(QuestionSimilarity.lexical("When was the first steam engine built in France?", ASKED))
                .isLessThan(same * 0.75);
        assertThat(QuestionSimilarity.lexical("What does the EU's legitimacy not rest on?",
                "What does the EU's legitimacy rest on?")).isLessThan(0.75);
        assertThat(QuestionSimilarity.lexical("What happened in 1904?", "What happened in 2004?")).isLessThan(0.75);
    }

    @Test
    void shouldTellAQuestionForAnotherKindOfAnswer() {
        assertThat(QuestionSimilarity.lexical("Who founded Harvard College?", "When was Harvard College founded?"))
                .as("the same words, another kind of answer")
                .isLessThanOrEqualTo(1 - QuestionSimilarity.DIFFERENT_QUESTION_COST);
    }

    @Test
    void shouldForgiveTyposButNotOtherWords() {
        assertThat(QuestionSimilarity.sameWord("normans", "noramns")).isTrue();
        assertThat(QuestionSimilarity.sameWord("engine", "engnie")).isTrue();
        assertThat(QuestionSimilarity.sameWord("predominated", "prdominated")).isTrue();
        assertThat(QuestionSimilarity.sameWord("built", "build")).isTrue();
        assertThat(QuestionSimilarity.sameWord("cat", "car")).isFalse();
        assertThat(QuestionSimilarity.sameWord("exports", "imports")).isFalse();
    }

    @Test
    void shouldMixInTheEmbeddingCosineByItsWeight() {
        QuestionSimilarity withVectors = new QuestionSimilarity(new FixedEmbedder(), 0.5);
        double lexical = QuestionSimilarity.lexical("alpha beta", "alpha gamma");
        assertThat(withVectors.score("alpha beta", "alpha gamma")).isEqualTo(0.5 * lexical + 0.5 * 1.0);
        assertThat(new QuestionSimilarity(null, 0.5).score("alpha beta", "alpha gamma")).isEqualTo(lexical);
    }

    /** Every text the same unit vector: a cosine of 1, to see the weight at work. */
    static final class FixedEmbedder implements io.raglog.checks.Embedder {
        @Override
        public String id() {
            return "fixed";
        }

        @Override
        public int dimensions() {
            return 2;
        }

        @Override
        public java.util.List<float[]> embed(java.util.List<String> texts) {
            return texts.stream().map(t -> new float[] {1, 0}).toList();
        }
    }
}
