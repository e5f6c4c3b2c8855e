package io.raglog.training;

import io.raglog.score.Imputer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Fits an {@link Imputer}: each feature's median over the training rows, and which features were ever missing. */
public final class ImputerFit {

    private ImputerFit() {}

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

    private static double median(double[] values, int n) {
        if (n == 0) {
            return 0.0;
        }
        double[] sorted = Arrays.copyOf(values, n);
        Arrays.sort(sorted);
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }
}
