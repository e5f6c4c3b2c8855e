package io.raglog.score;

/**
 * L2-regularised logistic regression on standardised, imputed features: what scoring needs of it. It is fitted
 * offline by {@code io.raglog.training.LogisticRegressionFit} (Newton's method); its whole state is four arrays of
 * numbers that the bundle stores as plain JSON.
 *
 * @param mean per column, subtracted before scaling
 * @param scale per column, the training standard deviation (1 for a constant column)
 */
public record LogisticRegression(double[] mean, double[] scale, double[] weights, double bias) {

    public double predict(double[] x) {
        double z = bias;
        for (int i = 0; i < weights.length; i++) {
            z += weights[i] * (x[i] - mean[i]) / scale[i];
        }
        return sigmoid(z);
    }

    /** The logistic function, without overflow at either end. */
    public static double sigmoid(double z) {
        if (z >= 0) {
            return 1.0 / (1.0 + Math.exp(-z));
        }
        double e = Math.exp(z);
        return e / (1.0 + e);
    }
}
