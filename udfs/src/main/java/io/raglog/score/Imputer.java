package io.raglog.score;

/**
 * Missing values for the two models that cannot read NaN (logistic regression, extra-trees): each missing value
 * becomes the feature's training median ({@code io.raglog.training.ImputerFit} finds them), and every feature that
 * was missing in at least one training row gets a 0/1 missing-indicator column appended.
 *
 * <p>Why the median: the features are counts, shares and 0-100 confidences with long tails; the median is a value
 * the feature actually takes and is not pulled by the tail. Why the indicator: here missing is information, not
 * noise (no reranker in the pipeline, an LLM check that could not be answered, economy mode skipping the support
 * check), so the models must be able to tell "missing" from "typical". Features never missing in training get no
 * indicator (it would be a constant column); if one goes missing when serving it is imputed with its median.
 *
 * @param medians per raw feature, the median of its non-missing training values (0 when it was always missing)
 * @param indicators raw feature indices that get a missing-indicator column, in that order after the raw features
 */
public record Imputer(double[] medians, int[] indicators) {

    /** Width of an imputed row: the raw features plus one indicator per feature that can be missing. */
    public int width() {
        return medians.length + indicators.length;
    }

    public double[] apply(double[] raw) {
        return apply(raw, new double[width()]);
    }

    /** The imputed row written into {@code out} (at least {@link #width()} long), which is returned. */
    public double[] apply(double[] raw, double[] out) {
        for (int f = 0; f < medians.length; f++) {
            out[f] = Double.isNaN(raw[f]) ? medians[f] : raw[f];
        }
        for (int i = 0; i < indicators.length; i++) {
            out[medians.length + i] = Double.isNaN(raw[indicators[i]]) ? 1.0 : 0.0;
        }
        return out;
    }

    public double[][] apply(double[][] raw) {
        double[][] out = new double[raw.length][];
        for (int i = 0; i < raw.length; i++) {
            out[i] = apply(raw[i]);
        }
        return out;
    }
}
