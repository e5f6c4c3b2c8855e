package io.raglog.schemas;

import java.util.List;

/**
 * One stage of a verdict.
 *
 * @param present false when the run had no such stage: it is not scored, probability and threshold are null
 * @param probability the ensemble's fault probability (weights 1/3 logistic regression, 1/2 gradient-boosted trees,
 *     1/6 extra-trees)
 * @param threshold the stage's threshold from the model bundle; flagged by the models when probability &ge; threshold
 * @param flagged the final decision, after the reassignment rule (which may clear retrieval or flag the reranker
 *     whatever their probabilities)
 * @param evidence short sentences a person can act on, drawn from the checks; empty when the stage is not flagged
 * @param repairHint what to try first, in the spirit of a repair card; null when the stage is not flagged
 * @param models the three models' own probabilities, so the ensemble's arithmetic can be checked; null when absent
 */
public record StageVerdict(
        boolean present,
        Double probability,
        Double threshold,
        boolean flagged,
        List<String> evidence,
        String repairHint,
        ModelProbabilities models) {

    public static StageVerdict absent() {
        return new StageVerdict(false, null, null, false, List.of(), null, null);
    }

    /** The ensemble's members for one stage, each a probability in [0, 1]. */
    public record ModelProbabilities(double logisticRegression, double gradientBoostedTrees, double extraTrees) {}
}
