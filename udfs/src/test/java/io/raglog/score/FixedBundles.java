package io.raglog.score;

import io.raglog.checks.FeatureList;
import io.raglog.schemas.EvidenceFlow;
import io.raglog.schemas.LlmUsage;
import io.raglog.schemas.RunFeatures;
import io.raglog.schemas.Stage;
import java.time.Instant;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.DMatrix;
import ml.dmlc.xgboost4j.java.XGBoost;

/**
 * Bundles whose models are fixed by hand, so their scores can be computed on paper. The row has one feature,
 * {@code x}. Every stage: logistic regression sigmoid(2x - 1), extra-trees one tree (x &lt; 0.5 → 0.2, else 0.9),
 * XGBoost with no trees and base score 0.75 (so it always says 0.75). At x = 1 a stage scores
 * sigmoid(1)/3 + 0.75/2 + 0.9/6.
 */
final class FixedBundles {

    static final String VERSION = "fixed/v1";
    /** The judge the fixed bundle was "trained" with, the offline one. */
    static final String JUDGE = "offline-judge/v1";
    static final double SIGMOID_ONE = 1.0 / (1.0 + Math.exp(-1.0));
    static final double P_AT_ONE = SIGMOID_ONE / 3 + 0.75 / 2 + 0.9 / 6;

    private FixedBundles() {}

    static ModelBundle withThresholds(Map<Stage, Double> thresholds) {
        return withThresholds(VERSION, "x", thresholds);
    }

    /** The same models reading the feature {@code x} of another feature list (e.g. the checks' real one). */
    static ModelBundle withThresholds(String version, String x, Map<Stage, Double> thresholds) {
        FeatureSpace space = new FeatureSpace(version, List.of(x));
        Map<Stage, StageModel> models = new EnumMap<>(Stage.class);
        for (Stage stage : thresholds.keySet()) { // a stage with no threshold has no model: an older bundle's shape
            models.put(stage, new StageModel(new Imputer(new double[] {0.0}, new int[0]),
                    new LogisticRegression(new double[] {0.0}, new double[] {1.0}, new double[] {2.0}, -1.0),
                    constantBoostedTrees(0.75),
                    new ExtraTrees(List.of(new ExtraTrees.Tree(new int[] {0, -1, -1}, new double[] {0.5, 0, 0},
                            new int[] {1, -1, -1}, new int[] {2, -1, -1}, new double[] {0.6, 0.2, 0.9})))));
        }
        return ModelBundle.create("fixed", Instant.parse("2026-11-29T00:00:00Z"), space, JUDGE,
                thresholds, models, null, null);
    }

    /**
     * The fixed bundle with a tier gate of the same shape: the gate's model of a stage reads that stage's own cheap
     * feature {@code cheap.<stage>} (see {@link #cheapFeature}) as its x, so each stage's gate probability is set
     * by the run: {@link #P_AT_ZERO} at 0, {@link #P_AT_HALF} at 0.5, {@link #P_AT_ONE} at 1.
     */
    static ModelBundle withGate(Map<Stage, Double> thresholds, Map<Stage, TierGate.Bounds> bounds) {
        List<String> names = new java.util.ArrayList<>();
        for (Stage stage : bounds.keySet()) {
            names.add(cheapFeature(stage));
        }
        return withGate(VERSION, "x", names, thresholds, bounds);
    }

    /**
     * The same on another feature list: stage models read {@code x}, the gate model of the s-th stage with bounds
     * (in pipeline order) reads {@code gateFeatures[s]}.
     */
    static ModelBundle withGate(String version, String x, List<String> gateFeatures, Map<Stage, Double> thresholds,
            Map<Stage, TierGate.Bounds> bounds) {
        List<String> names = gateFeatures;
        int width = names.size();
        Map<Stage, StageModel> gateModels = new EnumMap<>(Stage.class);
        List<Stage> gated = List.copyOf(new java.util.TreeSet<>(bounds.keySet()));
        for (Stage stage : gated) {
            int s = gated.indexOf(stage);
            double[] weights = new double[width];
            weights[s] = 2.0;
            double[] ones = new double[width];
            java.util.Arrays.fill(ones, 1.0);
            gateModels.put(stage, new StageModel(new Imputer(new double[width], new int[0]),
                    new LogisticRegression(new double[width], ones, weights, -1.0),
                    constantBoostedTrees(0.75, width),
                    new ExtraTrees(List.of(new ExtraTrees.Tree(new int[] {s, -1, -1}, new double[] {0.5, 0, 0},
                            new int[] {1, -1, -1}, new int[] {2, -1, -1}, new double[] {0.6, 0.2, 0.9})))));
        }
        TierGate gate = new TierGate(new FeatureSpace(version, names), gateModels, bounds);
        try (ModelBundle plain = withThresholds(version, x, thresholds)) {
            Map<Stage, StageModel> models = new EnumMap<>(Stage.class);
            for (Stage stage : thresholds.keySet()) {
                StageModel m = plain.model(stage);
                models.put(stage, new StageModel(m.imputer(), m.logistic(), constantBoostedTrees(0.75, 1),
                        m.extraTrees()));
            }
            return ModelBundle.create("fixed", Instant.parse("2026-11-29T00:00:00Z"), plain.features(),
                    JUDGE, thresholds, models, null, null, gate, null);
        }
    }

    /** sigmoid(-1)/3 + 0.75/2 + 0.2/6 */
    static final double P_AT_ZERO = (1.0 / (1.0 + Math.exp(1.0))) / 3 + 0.75 / 2 + 0.2 / 6;
    /** 0.5/3 + 0.75/2 + 0.9/6 */
    static final double P_AT_HALF = 0.5 / 3 + 0.75 / 2 + 0.9 / 6;

    static String cheapFeature(Stage stage) {
        return "cheap." + stage.id();
    }

    static Map<Stage, TierGate.Bounds> sameBounds(double healthyBelow, double faultyFrom) {
        Map<Stage, TierGate.Bounds> b = new EnumMap<>(Stage.class);
        for (Stage stage : Stage.values()) {
            if (ModelBundle.mayLack(stage)) {
                continue; // the fixed bundles have the shape of a bundle trained before context assembly
            }
            b.put(stage, new TierGate.Bounds(healthyBelow, faultyFrom));
        }
        return b;
    }

    static Map<Stage, Double> thresholds(double rewrite, double embed, double retrieve, double rerank,
            double generate) {
        Map<Stage, Double> t = new EnumMap<>(Stage.class);
        t.put(Stage.REWRITE, rewrite);
        t.put(Stage.EMBED, embed);
        t.put(Stage.RETRIEVE, retrieve);
        t.put(Stage.RERANK, rerank);
        t.put(Stage.GENERATE, generate);
        return t;
    }

    /** The shipped feature list's named values of one run, as the rules after the ensemble read them. */
    static RunFeatures namedFeatures(Map<String, Double> values) {
        return new RunFeatures(RunFeatures.SCHEMA_V1, "run-1", "support-bot", "Who was the first duke of Normandy?",
                FeatureList.VERSION, new LinkedHashMap<>(values),
                new LlmUsage(5, 0, 0, 0.0, false, List.of(), "offline-judge/v1"), null, List.of());
    }

    /** Features of the fixed list at x, plus the checks' reranker numbers the evidence quotes. */
    static RunFeatures features(String runId, double x, EvidenceFlow flow) {
        Map<String, Double> values = new LinkedHashMap<>();
        values.put("x", x);
        values.put(FeatureList.RERANK_INPUT_COUNT, 20.0);
        values.put(FeatureList.RERANK_OUTPUT_COUNT, 5.0);
        return new RunFeatures(RunFeatures.SCHEMA_V1, runId, "support-bot", "What was the operating cash flow in 2023?",
                VERSION, values, new LlmUsage(5, 2400, 310, 0.0021, false, List.of(), JUDGE), flow,
                List.of());
    }

    private static GradientBoostedTrees constantBoostedTrees(double baseScore) {
        return constantBoostedTrees(baseScore, 1);
    }

    private static GradientBoostedTrees constantBoostedTrees(double baseScore, int width) {
        try {
            DMatrix data = new DMatrix(new float[2 * width], 2, width, Float.NaN);
            data.setLabel(new float[] {0f, 1f});
            Map<String, Object> params = new LinkedHashMap<>();
            params.put("objective", "binary:logistic");
            params.put("base_score", baseScore);
            params.put("nthread", 1);
            Booster booster = XGBoost.train(data, params, 0, Map.of(), null, null);
            byte[] bytes = booster.toByteArray(GradientBoostedTrees.FORMAT);
            booster.dispose();
            data.dispose();
            return GradientBoostedTrees.load(bytes, width);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
