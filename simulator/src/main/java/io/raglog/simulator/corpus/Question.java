package io.raglog.simulator.corpus;

import java.util.List;

/**
 * One question with its gold truth.
 *
 * @param expectedAnswer the reference answer, null when the question is unanswerable from the corpus
 * @param acceptableAnswers every answer the reference accepts (SQuAD has several annotators), expected answer first
 * @param answerStarts character offsets of {@code acceptableAnswers} in the first relevant document, aligned with
 *     it, or empty when the corpus does not give them (then the evidence is found by text search)
 * @param plausibleAnswers for an unanswerable question, the tempting wrong answers the text suggests (SQuAD 2.0)
 */
public record Question(String questionId, String question, boolean answerable, List<String> relevantDocIds,
        String expectedAnswer, List<String> acceptableAnswers, List<Integer> answerStarts,
        List<String> plausibleAnswers) {

    public Question {
        relevantDocIds = List.copyOf(relevantDocIds);
        acceptableAnswers = List.copyOf(acceptableAnswers);
        answerStarts = List.copyOf(answerStarts);
        plausibleAnswers = List.copyOf(plausibleAnswers);
    }
}
