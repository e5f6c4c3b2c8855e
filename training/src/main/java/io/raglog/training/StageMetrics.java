package io.raglog.training;

/**
 * Confusion counts of stage decisions and what follows from them. Precision, recall and F1 are 0 when undefined
 * (nothing flagged, nothing faulty), which is how the pooled F1 of a method that never flags should read.
 */
public record StageMetrics(int truePositives, int falsePositives, int falseNegatives, int trueNegatives,
        double precision, double recall, double f1) {

    public static StageMetrics of(int tp, int fp, int fn, int tn) {
        double precision = tp + fp == 0 ? 0.0 : (double) tp / (tp + fp);
        double recall = tp + fn == 0 ? 0.0 : (double) tp / (tp + fn);
        double f1 = 2 * tp + fp + fn == 0 ? 0.0 : 2.0 * tp / (2.0 * tp + fp + fn);
        return new StageMetrics(tp, fp, fn, tn, precision, recall, f1);
    }

    public int faulty() {
        return truePositives + falseNegatives;
    }

    public int instances() {
        return truePositives + falsePositives + falseNegatives + trueNegatives;
    }
}
