package io.raglog.simulator.pipeline;

import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.corpus.Question;
import io.raglog.simulator.text.AnswerMatch;
import io.raglog.simulator.text.Sentences;
import io.raglog.simulator.text.Words;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * A pipeline's own relevance gate: before generating, a model is asked whether the prompt's passages suffice to answer,
 * and the pipeline generates only when it says they do (the "relevance gate before generation" pattern). A run it
 * stops has no generator call.
 *
 * <p>The simulated gate errs as a model reading for relevance does: it stops some runs whose context held the answer,
 * more often when the sentence that holds it shares few of the question's words (the answer is phrased otherwise
 * than the question asks it), and lets some through whose context did not. A stop of a context that held the answer
 * is the run's fault, at the generation step the gate stands for: nothing was generated from a context that could
 * answer.
 *
 * @param falseStop how often it stops a context whose answering sentence shares at least half the question's content
 *     words; three times this when it shares fewer
 * @param falsePass how often it lets through a context that does not hold the answer
 */
public record RelevanceGate(double falseStop, double falsePass) {

    /** What the gate replies, as its prompt tells it to. */
    public static final String SUFFICIENT = "SUFFICIENT";
    public static final String INSUFFICIENT = "INSUFFICIENT";

    /** Whether the gate stops the run, given the question and the passages that reached the prompt. */
    public boolean stops(Question q, List<Chunk> prompt, boolean promptHoldsAnswer, SplittableRandom rng) {
        if (!promptHoldsAnswer) {
            return !Rand.chance(rng, falsePass);
        }
        return Rand.chance(rng, plainlyAnswered(q, prompt) ? falseStop : 3 * falseStop);
    }

    /** Whether a sentence of the prompt holds the answer and half the question's content words. */
    private static boolean plainlyAnswered(Question q, List<Chunk> prompt) {
        Set<String> asked = new HashSet<>(Words.contentStems(q.question()));
        for (Chunk c : prompt) {
            for (String sentence : Sentences.of(c.text())) {
                if (AnswerMatch.contains(sentence, q.acceptableAnswers())) {
                    long shared = new HashSet<>(Words.contentStems(sentence)).stream().filter(asked::contains).count();
                    if (2 * shared >= asked.size()) {
                        return true;
                    }
                }
            }
        }
        return false;
    }
}
