package io.raglog.score;

import io.raglog.schemas.StageVerdict.ModelProbabilities;

/**
 * RAGLog's fixed weights for a stage's three models. The boosted trees get the most say, the extra-trees the least;
 * the weights sum to one, so the result is still a probability.
 */
public final class Ensemble {

    public static final double LOGISTIC_REGRESSION = 1.0 / 3.0;
    public static final double GRADIENT_BOOSTED_TREES = 1.0 / 2.0;
    public static final double EXTRA_TREES = 1.0 / 6.0;

    private Ensemble() {}

    public static double combine(ModelProbabilities p) {
        return LOGISTIC_REGRESSION * p.logisticRegression()
                + GRADIENT_BOOSTED_TREES * p.gradientBoostedTrees()
                + EXTRA_TREES * p.extraTrees();
    }
}
