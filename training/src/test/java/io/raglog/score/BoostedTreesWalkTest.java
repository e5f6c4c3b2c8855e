package io.raglog.score;

import static org.assertj.core.api.Assertions.assertThat;

import io.raglog.training.GradientBoostedTreesFit;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import ml.dmlc.xgboost4j.java.Booster;
import ml.dmlc.xgboost4j.java.DMatrix;
import ml.dmlc.xgboost4j.java.XGBoost;
import org.junit.jupiter.api.Test;

/** The Java walk of XGBoost's trees against XGBoost's own predictions, through JNI, on the same rows. */
class BoostedTreesWalkTest {

    private static final int WIDTH = 8;

    @Test
    void shouldGiveXgboostsMarginsToTheBitAndItsProbabilitiesWithinOneUlp() throws Exception {
        Random random = new Random(17);
        double[][] train = rows(random, 600);
        int[] y = new int[train.length];
        for (int i = 0; i < y.length; i++) {
            // a label that needs several features, their missingness and some noise: deep, varied trees
            double a = Double.isNaN(train[i][0]) ? 1.5 : train[i][0];
            y[i] = a + train[i][1] * train[i][2] - (Double.isNaN(train[i][3]) ? 0 : train[i][3]) + 0.3
                    * random.nextGaussian() > 0.5 ? 1 : 0;
        }
        double[][] rows = rows(random, 5_000);
        // values the training set holds, exactly: XGBoost's hist cuts sit on them, so splits meet equal inputs
        for (int i = 0; i < rows.length; i += 3) {
            rows[i][i % WIDTH] = train[i % train.length][i % WIDTH];
        }
        GradientBoostedTreesFit.Settings settings = GradientBoostedTreesFit.Settings.defaults(3);
        try (GradientBoostedTrees model = GradientBoostedTreesFit.fit(train, y, settings)) {
            assertThat(model.walksInJava()).isTrue();
            Booster booster = XGBoost.loadModel(model.toBytes());
            try {
                BoostedTreesWalk walk = BoostedTreesWalk.of(booster.toByteArray("json")).orElseThrow();
                assertThat(walk.trees()).isEqualTo(150);
                float[][] margins = booster.inplace_predict(GradientBoostedTrees.flatten(rows, WIDTH), rows.length,
                        WIDTH, Float.NaN, new int[] {0, 0}, Booster.PredictionType.kMargin, null);
                double[] walked = model.predict(rows);
                double[] native_ = model.predictNatively(rows);
                int sameProbability = 0;
                for (int i = 0; i < rows.length; i++) {
                    assertThat(walk.margin(rows[i])).as("margin of row %d", i).isEqualTo(margins[i][0]);
                    float ulp = Math.ulp((float) native_[i]);
                    assertThat(Math.abs(walked[i] - native_[i])).as("probability of row %d", i)
                            .isLessThanOrEqualTo(ulp);
                    if (walked[i] == native_[i]) {
                        sameProbability++;
                    }
                }
                // the only difference is the last bit of exp, in a few rows
                assertThat(sameProbability).isGreaterThan(rows.length * 99 / 100);
                assertThat(walked).contains(model.predict(rows[7]), model.predict(rows[4_999]));
            } finally {
                booster.dispose();
            }
        }
    }

    @Test
    void shouldLeaveModelsItDoesNotKnowToXgboost() throws Exception {
        Random random = new Random(4);
        double[][] x = rows(random, 200);
        float[] labels = new float[x.length];
        for (int i = 0; i < labels.length; i++) {
            labels[i] = (float) random.nextGaussian();
        }
        DMatrix data = new DMatrix(GradientBoostedTrees.flatten(x, WIDTH), x.length, WIDTH, Float.NaN);
        data.setLabel(labels);
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("objective", "reg:squarederror"); // no sigmoid: not a probability
        params.put("nthread", 1);
        Booster regression = XGBoost.train(data, params, 5, Map.of(), null, null);
        try {
            assertThat(BoostedTreesWalk.of(regression.toByteArray("json"))).isEmpty();
            try (GradientBoostedTrees model = GradientBoostedTrees.load(regression.toByteArray("ubj"), WIDTH)) {
                assertThat(model.walksInJava()).isFalse();
                assertThat(model.predict(x)).containsExactly(model.predictNatively(x));
            }
        } finally {
            regression.dispose();
            data.dispose();
        }
        assertThat(BoostedTreesWalk.of("not a model".getBytes(StandardCharsets.UTF_8))).isEmpty();
        assertThat(BoostedTreesWalk.of("{\"learner\":{}}".getBytes(StandardCharsets.UTF_8))).isEmpty();
    }

    @Test
    void shouldFollowXgboostsSigmoidAtTheExtremes() {
        assertThat(BoostedTreesWalk.sigmoid(0f)).isEqualTo(0.5f);
        assertThat(BoostedTreesWalk.sigmoid(-200f)).isGreaterThanOrEqualTo(0f).isLessThan(1e-38f);
        assertThat(BoostedTreesWalk.sigmoid(200f)).isEqualTo(1f);
        assertThat(BoostedTreesWalk.probabilityToMargin(0.5f)).isEqualTo(0f);
    }

    private static double[][] rows(Random random, int n) {
        double[][] x = new double[n][WIDTH];
        for (double[] row : x) {
            for (int j = 0; j < WIDTH; j++) {
                row[j] = random.nextInt(5) == 0 ? Double.NaN : random.nextGaussian() * (j + 1);
            }
        }
        return x;
    }
}
