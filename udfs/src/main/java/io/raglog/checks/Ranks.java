package io.raglog.checks;

/** Rank correlations over short lists (a reranker keeps a handful of passages): O(n²) is fine. */
public final class Ranks {

    private Ranks() {}

    /** Kendall's tau-a between two scorings of the same items; null with fewer than two items. */
    public static Double kendallTau(double[] a, double[] b) {
        int n = a.length;
        if (n < 2) {
            return null;
        }
        long concordant = 0;
        long discordant = 0;
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                double s = Math.signum(a[i] - a[j]) * Math.signum(b[i] - b[j]);
                if (s > 0) {
                    concordant++;
                } else if (s < 0) {
                    discordant++;
                }
            }
        }
        return (concordant - discordant) / (n * (n - 1) / 2.0);
    }

    /** Spearman's rho (Pearson on average ranks, so ties are fair); null with fewer than two items or no spread. */
    public static Double spearman(double[] a, double[] b) {
        if (a.length < 2) {
            return null;
        }
        double[] ra = ranks(a);
        double[] rb = ranks(b);
        double ma = mean(ra);
        double mb = mean(rb);
        double cov = 0;
        double va = 0;
        double vb = 0;
        for (int i = 0; i < ra.length; i++) {
            cov += (ra[i] - ma) * (rb[i] - mb);
            va += (ra[i] - ma) * (ra[i] - ma);
            vb += (rb[i] - mb) * (rb[i] - mb);
        }
        if (va == 0 || vb == 0) {
            return null;
        }
        return cov / Math.sqrt(va * vb);
    }

    private static double[] ranks(double[] values) {
        double[] r = new double[values.length];
        for (int i = 0; i < values.length; i++) {
            int less = 0;
            int equal = 0;
            for (double other : values) {
                if (other < values[i]) {
                    less++;
                } else if (other == values[i]) {
                    equal++;
                }
            }
            r[i] = less + (equal + 1) / 2.0;
        }
        return r;
    }

    private static double mean(double[] v) {
        double s = 0;
        for (double x : v) {
            s += x;
        }
        return s / v.length;
    }
}
