package io.raglog.score;

/**
 * L2-regularised logistic regression on standardised, imputed features: what scoring needs of it. It is fitted
 * offline by {@code io.raglog.training.LogisticRegressionFit} (Newton's method); its whole state is a few arrays of
 * numbers that the bundle stores as plain JSON.
 *
 * <p>A value outside the range the model was fitted on is read as the range's nearest end. A line fitted on training
 * runs says nothing about a value none of them had, and it extrapolates without limit: a feature nearly constant in
 * training (a stack's signature, 0.1-0.4 % of a model's window) sat 19 standard deviations away on a pipeline never
 * trained on and alone took the embedding stage's probability to 1. The trees, which cannot extrapolate, read a far
 * value as the last value they split on; this reads it the same way.
 *
 * @param mean per column, subtracted before scaling
 * @param scale per column, the training standard deviation (1 for a constant column)
 * @param low per column, the least value fitted on; null in a bundle fitted before the range was kept (no clamp)
 * @param high per column, the greatest value fitted on; null with {@code low}
 */
public record LogisticRegression(double[] mean, double[] scale, double[] weights, double bias, double[] low,
        double[] high) {

    /** A model that reads every value as it is: a bundle's from before the fitted range was kept, or a test's. */
    public LogisticRegression(double[] mean, double[] scale, double[] weights, double bias) {
        this(mean, scale, weights, bias, null, null);
    }

    public double predict(double[] x) {
        double z = bias;
        for (int i = 0; i < weights.length; i++) {
            double v = low == null ? x[i] : Math.min(Math.max(x[i], low[i]), high[i]);
            z += weights[i] * (v - mean[i]) / scale[i];
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
