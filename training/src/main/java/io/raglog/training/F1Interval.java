package io.raglog.training;

import io.raglog.schemas.Stage;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * How far pooled stage F1 moves with the sample alone: a percentile bootstrap over runs (the runs are what is drawn;
 * a run's stages go together). Two bundles, or two changes, whose F1 differ by less than this interval's width on
 * the same sample have not been told apart by it; a retrained bundle's threshold search moves a sample's F1 about as
 * much on its own.
 *
 * @param low the 2.5th percentile of the replicates' pooled F1
 * @param high the 97.5th
 * @param replicates how many resamples of the runs, each as many runs as the sample, drawn with replacement
 */
public record F1Interval(double low, double high, int replicates) {

    /** Enough replicates for the percentiles' second decimal; seeded, so a report is a function of its inputs. */
    static final int REPLICATES = 1000;
    private static final long SEED = 20261206L;

    /** The interval of the pooled F1 of {@code outcomes}; null for no runs. */
    static F1Interval of(List<RunOutcome> outcomes) {
        int n = outcomes.size();
        if (n == 0) {
            return null;
        }
        int[] tp = new int[n];
        int[] fp = new int[n];
        int[] fn = new int[n];
        for (int i = 0; i < n; i++) {
            RunOutcome run = outcomes.get(i);
            for (Stage stage : run.scored()) {
                boolean truth = run.truth().faulty(stage);
                boolean flagged = run.flagged().contains(stage);
                tp[i] += truth && flagged ? 1 : 0;
                fp[i] += !truth && flagged ? 1 : 0;
                fn[i] += truth && !flagged ? 1 : 0;
            }
        }
        SplittableRandom random = new SplittableRandom(SEED);
        double[] f1 = new double[REPLICATES];
        for (int r = 0; r < REPLICATES; r++) {
            long t = 0;
            long p = 0;
            long m = 0;
            for (int k = 0; k < n; k++) {
                int i = random.nextInt(n);
                t += tp[i];
                p += fp[i];
                m += fn[i];
            }
            f1[r] = t == 0 ? 0.0 : 2.0 * t / (2.0 * t + p + m);
        }
        Arrays.sort(f1);
        return new F1Interval(f1[(int) Math.floor(0.025 * (REPLICATES - 1))],
                f1[(int) Math.ceil(0.975 * (REPLICATES - 1))], REPLICATES);
    }
}
