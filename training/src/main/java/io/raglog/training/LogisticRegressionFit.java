package io.raglog.training;

import io.raglog.score.LogisticRegression;
import java.util.Arrays;

/**
 * Fits a {@link LogisticRegression} by Newton's method (iteratively reweighted least squares) on standardised,
 * imputed features, keeping the range of values each column was fitted on (scoring reads a value beyond it as its
 * nearest end). Hand-written rather than taken from a library: it is a few dozen lines, it is exact and
 * deterministic, and what it fits is a few arrays of numbers that the bundle stores as plain JSON.
 */
public final class LogisticRegressionFit {

    private static final int MAX_ITERATIONS = 100;
    private static final double CONVERGED = 1e-8;

    private LogisticRegressionFit() {}

    /**
     * @param x imputed rows (no NaN)
     * @param y 1 faulty, 0 sound
     * @param l2 penalty on the weights (not the bias) in units of the standardised features
     */
    public static LogisticRegression fit(double[][] x, int[] y, double l2) {
        int n = x.length;
        int d = x[0].length;
        double[] mean = new double[d];
        double[] scale = new double[d];
        double[] low = new double[d];
        double[] high = new double[d];
        Arrays.fill(low, Double.POSITIVE_INFINITY);
        Arrays.fill(high, Double.NEGATIVE_INFINITY);
        for (double[] row : x) {
            for (int j = 0; j < d; j++) {
                mean[j] += row[j] / n;
                low[j] = Math.min(low[j], row[j]);
                high[j] = Math.max(high[j], row[j]);
            }
        }
        for (double[] row : x) {
            for (int j = 0; j < d; j++) {
                double c = row[j] - mean[j];
                scale[j] += c * c / n;
            }
        }
        for (int j = 0; j < d; j++) {
            scale[j] = scale[j] > 1e-24 ? Math.sqrt(scale[j]) : 1.0;
        }
        // Column 0 of the design is the bias; the rest are the standardised features.
        double[][] z = new double[n][d + 1];
        for (int i = 0; i < n; i++) {
            z[i][0] = 1.0;
            for (int j = 0; j < d; j++) {
                z[i][j + 1] = (x[i][j] - mean[j]) / scale[j];
            }
        }
        double[] w = new double[d + 1];
        for (int iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
            double[] gradient = new double[d + 1];
            double[][] hessian = new double[d + 1][d + 1];
            for (int i = 0; i < n; i++) {
                double p = LogisticRegression.sigmoid(dot(w, z[i]));
                double r = p - y[i];
                double s = Math.max(p * (1 - p), 1e-12);
                double[] zi = z[i];
                for (int a = 0; a <= d; a++) {
                    gradient[a] += r * zi[a];
                    double sa = s * zi[a];
                    for (int b = 0; b <= a; b++) {
                        hessian[a][b] += sa * zi[b];
                    }
                }
            }
            for (int a = 1; a <= d; a++) {
                gradient[a] += l2 * w[a];
                hessian[a][a] += l2;
            }
            hessian[0][0] += 1e-9; // keeps the system solvable when every label is the same
            double[] step = Cholesky.solveSymmetric(hessian, gradient);
            double largest = 0;
            for (int a = 0; a <= d; a++) {
                w[a] -= step[a];
                largest = Math.max(largest, Math.abs(step[a]));
            }
            if (largest < CONVERGED) {
                break;
            }
        }
        double[] weights = new double[d];
        System.arraycopy(w, 1, weights, 0, d);
        return new LogisticRegression(mean, scale, weights, w[0], low, high);
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    /** Solves H x = g for a symmetric positive definite H given by its lower triangle. */
    static final class Cholesky {

        private Cholesky() {}

        static double[] solveSymmetric(double[][] lower, double[] g) {
            int n = g.length;
            double[][] l = new double[n][n];
            for (int i = 0; i < n; i++) {
                for (int j = 0; j <= i; j++) {
                    double s = lower[i][j];
                    for (int k = 0; k < j; k++) {
                        s -= l[i][k] * l[j][k];
                    }
                    if (i == j) {
                        l[i][i] = Math.sqrt(Math.max(s, 1e-12));
                    } else {
                        l[i][j] = s / l[j][j];
                    }
                }
            }
            double[] t = new double[n];
            for (int i = 0; i < n; i++) {
                double s = g[i];
                for (int k = 0; k < i; k++) {
                    s -= l[i][k] * t[k];
                }
                t[i] = s / l[i][i];
            }
            double[] x = new double[n];
            for (int i = n - 1; i >= 0; i--) {
                double s = t[i];
                for (int k = i + 1; k < n; k++) {
                    s -= l[k][i] * x[k];
                }
                x[i] = s / l[i][i];
            }
            return x;
        }
    }
}
