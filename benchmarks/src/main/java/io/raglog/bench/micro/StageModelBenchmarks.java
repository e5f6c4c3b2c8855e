package io.raglog.bench.micro;

import io.raglog.score.ExtraTrees;
import io.raglog.score.GradientBoostedTrees;
import io.raglog.score.ModelBundle;
import io.raglog.score.ScoringInput;
import io.raglog.score.StageModel;
import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * The shipped bundle's tree models alone: one op predicts every stage's extra-trees forest (or boosted trees) for one
 * run, as {@code RaglogBenchmarks.scoreRun} does among everything else, so a change to a walk shows without the
 * rest's noise.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class StageModelBenchmarks {

    @State(Scope.Thread)
    public static class Forests {
        final List<ExtraTrees> forests = new ArrayList<>();
        final List<GradientBoostedTrees> boosted = new ArrayList<>();
        /** Per run, per stage: the imputed row. */
        final List<double[][]> rows = new ArrayList<>();
        /** Per run: the raw row. */
        final List<double[]> raws = new ArrayList<>();
        RaglogBenchmarks.Checked checked;
        int next;

        @Setup(Level.Trial)
        public void setUp() {
            checked = new RaglogBenchmarks.Checked();
            checked.setUp();
            ModelBundle bundle = checked.bundle;
            List<StageModel> models = new ArrayList<>();
            for (Stage stage : bundle.scored(EnumSet.allOf(Stage.class))) {
                models.add(bundle.model(stage));
                forests.add(bundle.model(stage).extraTrees());
                boosted.add(bundle.model(stage).boosted());
            }
            for (ScoringInput input : checked.inputs) {
                double[] raw = bundle.features().row(input.features());
                double[][] imputed = new double[models.size()][];
                for (int m = 0; m < imputed.length; m++) {
                    imputed[m] = models.get(m).imputer().apply(raw);
                }
                rows.add(imputed);
                raws.add(raw);
            }
        }

        @TearDown(Level.Trial)
        public void tearDown() {
            checked.tearDown();
        }
    }

    @Benchmark
    public double extraTreesEveryStage(Forests f) {
        f.next = (f.next + 1) % f.rows.size();
        double[][] row = f.rows.get(f.next);
        double sum = 0;
        for (int m = 0; m < row.length; m++) {
            sum += f.forests.get(m).predict(row[m]);
        }
        return sum;
    }

    @Benchmark
    public double boostedTreesEveryStage(Forests f) {
        f.next = (f.next + 1) % f.raws.size();
        double[] raw = f.raws.get(f.next);
        double sum = 0;
        for (GradientBoostedTrees model : f.boosted) {
            sum += model.predict(raw);
        }
        return sum;
    }
}
