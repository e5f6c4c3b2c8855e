package io.raglog.simulator.pipeline;

/**
 * How often a generator model does each natural thing; a small local model slips more than a frontier one.
 *
 * @param falseAbstention evidence in the context, yet "I don't know"
 * @param wrongSpan evidence in the context, yet another span of it is given as the answer
 * @param parametricAnswer no evidence in the context, and the model answers correctly from what it memorised: the
 *     silent failure, a correct answer with no support
 * @param guessWithoutEvidence no evidence in the context, and the model answers from a passage that does not hold it
 * @param answersUnanswerable the question has no answer, the passage that tempts it is in the context, and it answers
 * @param sentenceAnswers share of answers given as the whole supporting sentence rather than the bare span
 */
public record GeneratorSkill(double falseAbstention, double wrongSpan, double parametricAnswer,
        double guessWithoutEvidence, double answersUnanswerable, double sentenceAnswers) {

    public static final GeneratorSkill FRONTIER = new GeneratorSkill(0.02, 0.04, 0.22, 0.18, 0.20, 0.5);
    public static final GeneratorSkill SMALL_OPEN = new GeneratorSkill(0.04, 0.09, 0.10, 0.30, 0.35, 0.3);
}
