package io.raglog.training;

import io.raglog.score.GradientBoostedTrees;
import java.util.LinkedHashMap;
import java.util.Map;
import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.DMatrix;
import ml.dmlc.xgboost4j.java.XGBoost;
import ml.dmlc.xgboost4j.java.XGBoostError;

/**
 * Trains {@link GradientBoostedTrees} with XGBoost: raw rows, NaN as XGBoost's missing value (each split learns which
 * way missing values go, so no imputation). Deterministic whatever the seed: no row or column subsampling.
 */
public final class GradientBoostedTreesFit {

    private GradientBoostedTreesFit() {}

    /**
     * @param rounds boosting rounds
     * @param threads XGBoost's {@code nthread} while training; serving always uses one thread (see
     *     {@link GradientBoostedTrees#load})
     */
    public record Settings(int rounds, int maxDepth, double learningRate, double minChildWeight, double l2,
            int threads, long seed) {

        public static Settings defaults(long seed) {
            return new Settings(150, 4, 0.1, 1.0, 1.0, 1, seed);
        }

        Map<String, Object> params() {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("objective", "binary:logistic");
            p.put("eval_metric", "logloss");
            p.put("tree_method", "hist");
            p.put("max_depth", maxDepth);
            p.put("eta", learningRate);
            p.put("min_child_weight", minChildWeight);
            p.put("lambda", l2);
            // No row or column subsampling: with them off, training is deterministic whatever the seed.
            p.put("subsample", 1.0);
            p.put("colsample_bytree", 1.0);
            p.put("nthread", threads);
            p.put("seed", seed);
            p.put("verbosity", 0);
            return p;
        }
    }

    /** @param x raw rows, NaN for missing; @param y 1 faulty, 0 sound */
    public static GradientBoostedTrees fit(double[][] x, int[] y, Settings settings) {
        int width = x[0].length;
        float[] labels = new float[y.length];
        for (int i = 0; i < y.length; i++) {
            labels[i] = y[i];
        }
        DMatrix train = null;
        try {
            train = new DMatrix(GradientBoostedTrees.flatten(x, width), x.length, width, Float.NaN);
            train.setLabel(labels);
            Booster booster = XGBoost.train(train, settings.params(), settings.rounds(), Map.of(), null, null);
            return GradientBoostedTrees.of(booster, width);
        } catch (XGBoostError e) {
            throw new IllegalStateException("XGBoost training failed: " + e.getMessage(), e);
        } finally {
            if (train != null) {
                train.dispose();
            }
        }
    }
}
