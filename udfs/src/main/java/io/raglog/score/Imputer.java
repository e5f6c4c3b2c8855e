package io.raglog.score;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Missing values for the two models that cannot read NaN (logistic regression, extra-trees): each missing value
 * becomes the feature's training median, and every feature that was missing in at least one training row gets a
 * 0/1 missing-indicator column appended.
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

    public static Imputer fit(double[][] rows, int width) {
        double[] medians = new double[width];
        List<Integer> indicators = new ArrayList<>();
        double[] column = new double[rows.length];
        for (int f = 0; f < width; f++) {
            int n = 0;
            for (double[] row : rows) {
                if (!Double.isNaN(row[f])) {
                    column[n++] = row[f];
                }
            }
            medians[f] = median(column, n);
            if (n < rows.length) {
                indicators.add(f);
            }
        }
        return new Imputer(medians, indicators.stream().mapToInt(Integer::intValue).toArray());
    }

    /** Width of an imputed row: the raw features plus one indicator per feature that can be missing. */
    public int width() {
        return medians.length + indicators.length;
    }

    public double[] apply(double[] raw) {
        double[] out = new double[width()];
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

    private static double median(double[] values, int n) {
        if (n == 0) {
            return 0.0;
        }
        double[] sorted = Arrays.copyOf(values, n);
        Arrays.sort(sorted);
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }
}
