package io.raglog.training;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.raglog.schemas.Json;
import io.raglog.score.ExtraTrees;
import io.raglog.score.FeatureSpace;
import io.raglog.score.GradientBoostedTrees;
import io.raglog.score.Imputer;
import io.raglog.score.LogisticRegression;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The hand-written models and the handling of missing values, each on data small enough to reason about. */
class ModelsTest {

    @Test
    void shouldImputeTheTrainingMedianAndAddAnIndicatorOnlyForFeaturesThatCanBeMissing() {
        double nan = Double.NaN;
        Imputer imputer = ImputerFit.fit(new double[][] {{1, nan, 5}, {3, 2, 5}, {2, nan, 5}, {10, 4, 5}}, 3);
        assertThat(imputer.medians()).containsExactly(2.5, 3.0, 5.0);
        assertThat(imputer.indicators()).containsExactly(1);
        assertThat(imputer.apply(new double[] {nan, nan, 7})).containsExactly(2.5, 3.0, 7.0, 1.0);
        assertThat(imputer.apply(new double[] {1, 2, 3})).containsExactly(1.0, 2.0, 3.0, 0.0);
    }

    @Test
    void shouldReadMissingNullNanAndInfiniteFeaturesAsNaNInBundleOrder() {
        FeatureSpace space = new FeatureSpace("v1", List.of("b", "a", "c", "d"));
        Map<String, Double> values = new LinkedHashMap<>();
        values.put("a", 1.0);
        values.put("b", Double.POSITIVE_INFINITY);
        values.put("c", null);
        values.put("unknown", 9.0);
        double[] row = space.row(values);
        assertThat(row[0]).isNaN();
        assertThat(row[1]).isEqualTo(1.0);
        assertThat(row[2]).isNaN();
        assertThat(row[3]).isNaN();
        assertThatThrownBy(() -> new FeatureSpace("v1", List.of())).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void shouldLearnTheSignOfEachFeatureWithLogisticRegression() {
        Random random = new Random(3);
        double[][] x = new double[400][];
        int[] y = new int[400];
        for (int i = 0; i < x.length; i++) {
            double signal = random.nextGaussian();
            double noise = random.nextGaussian();
            x[i] = new double[] {signal * 10 + 50, noise, 7.0};
            y[i] = signal + 0.3 * random.nextGaussian() > 0 ? 1 : 0;
        }
        LogisticRegression model = LogisticRegressionFit.fit(x, y, 1.0);
        assertThat(model.weights()[0]).isGreaterThan(2.0);
        assertThat(Math.abs(model.weights()[1])).isLessThan(0.5);
        assertThat(Math.abs(model.weights()[2])).isLessThan(1e-12); // a constant column carries nothing
        assertThat(model.predict(new double[] {80, 0, 7})).isGreaterThan(0.95);
        assertThat(model.predict(new double[] {20, 0, 7})).isLessThan(0.05);
        // the range it was fitted on is kept: a value far beyond it reads as the range's end
        double highest = Arrays.stream(x).mapToDouble(r -> r[0]).max().orElseThrow();
        assertThat(model.high()[0]).isEqualTo(highest);
        assertThat(model.low()[2]).isEqualTo(7.0);
        assertThat(model.predict(new double[] {1e6, 0, 7})).isEqualTo(model.predict(new double[] {highest, 0, 7}));
    }

    @Test
    void shouldSeparateANoisyThresholdWithExtraTreesAndRepeatForTheSameSeed() {
        Random random = new Random(4);
        double[][] x = new double[300][];
        int[] y = new int[300];
        for (int i = 0; i < x.length; i++) {
            x[i] = new double[] {random.nextDouble(), random.nextDouble(), random.nextDouble()};
            y[i] = x[i][1] > 0.6 ? 1 : 0;
        }
        ExtraTreesFit.Settings settings = new ExtraTreesFit.Settings(50, 0, 2, 20, 99);
        ExtraTrees model = ExtraTreesFit.fit(x, y, settings);
        assertThat(model.trees()).hasSize(50);
        assertThat(model.predict(new double[] {0.5, 0.9, 0.5})).isGreaterThan(0.8);
        assertThat(model.predict(new double[] {0.5, 0.2, 0.5})).isLessThan(0.2);
        assertThat(Json.write(ExtraTreesFit.fit(x, y, settings))).isEqualTo(Json.write(model));
        ExtraTrees back = Json.read(Json.write(model), ExtraTrees.class);
        assertThat(back.predict(x[7])).isEqualTo(model.predict(x[7]));
        // the packed walk scoring uses gives the very doubles of the trees' own walks, added in the same order
        for (int i = 0; i < 1000; i++) {
            double[] row = {random.nextDouble() * 1.2 - 0.1, random.nextDouble(), i % 2 == 0 ? 0.6 : random.nextDouble()};
            double sum = 0;
            for (ExtraTrees.Tree tree : model.trees()) {
                sum += walk(tree, row);
            }
            assertThat(model.predict(row)).isEqualTo(sum / model.trees().size());
        }
    }

    /** A tree's own walk over its parallel arrays, as the trees are stored: what the packed walk must equal. */
    private static double walk(ExtraTrees.Tree tree, double[] x) {
        int node = 0;
        while (tree.feature()[node] >= 0) {
            node = x[tree.feature()[node]] < tree.threshold()[node] ? tree.left()[node] : tree.right()[node];
        }
        return tree.value()[node];
    }

    @Test
    void shouldLetXgboostRouteMissingValuesWithoutImputation() {
        Random random = new Random(5);
        double[][] x = new double[300][];
        int[] y = new int[300];
        for (int i = 0; i < x.length; i++) {
            boolean faulty = random.nextBoolean();
            // faulty runs lose their check answer half of the time: missingness itself carries signal
            double v = faulty ? 0.7 + 0.2 * random.nextGaussian() : 0.2 + 0.2 * random.nextGaussian();
            x[i] = new double[] {faulty && random.nextBoolean() ? Double.NaN : v};
            y[i] = faulty ? 1 : 0;
        }
        try (GradientBoostedTrees model = GradientBoostedTreesFit.fit(x, y, GradientBoostedTreesFit.Settings.defaults(1))) {
            assertThat(model.predict(new double[] {Double.NaN})).isGreaterThan(0.8);
            assertThat(model.predict(new double[] {0.1})).isLessThan(0.2);
            try (GradientBoostedTrees back = GradientBoostedTrees.load(model.toBytes(), 1)) {
                assertThat(back.predict(x)).containsExactly(model.predict(x));
            }
        }
    }
}
