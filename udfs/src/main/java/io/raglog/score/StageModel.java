package io.raglog.score;

import io.raglog.schemas.StageVerdict.ModelProbabilities;

/**
 * One stage's three models over the whole run's features (a fault leaves traces in later stages, so every stage's
 * classifier reads every feature). Logistic regression and extra-trees read the imputed row, XGBoost the raw one.
 *
 * <p>Open for one subclass only: the training module's {@code io.raglog.training.StageModel}, which adds how the three
 * models are fitted; a bundle loads and scores this class.
 */
public class StageModel implements AutoCloseable {

    private final Imputer imputer;
    private final LogisticRegression logistic;
    private final GradientBoostedTrees boosted;
    private final ExtraTrees extraTrees;
    /**
     * Each scoring thread's imputed row, rewritten by every {@link #predict}: a new array per stage per run was 3 % of
     * the job's allocation. Per thread as well as per model: the tasks of a JVM share a bundle ({@code SharedBundles}).
     */
    private final ThreadLocal<double[]> imputedRow;

    public StageModel(Imputer imputer, LogisticRegression logistic, GradientBoostedTrees boosted,
            ExtraTrees extraTrees) {
        this.imputer = imputer;
        this.logistic = logistic;
        this.boosted = boosted;
        this.extraTrees = extraTrees;
        this.imputedRow = ThreadLocal.withInitial(() -> new double[imputer.width()]);
    }

    public ModelProbabilities predict(double[] raw) {
        // JFR without -XX:+DebugNonSafepoints puts some 40 % of scoreRun's samples (a quarter of the job's scoring
        // thread) on the imputer's indicator line: C2 keeps debug info only at safepoints and calls, and the samples of
        // the inlined extra-trees walk below, which has little of its own, are credited to a nearby point that has.
        // With the flag the imputer is 3 % and the extra-trees walk near 60 % (RaglogBenchmarks.scoreRun, issue #27).
        double[] imputed = imputer.apply(raw, imputedRow.get());
        return new ModelProbabilities(logistic.predict(imputed), boosted.predict(raw), extraTrees.predict(imputed));
    }

    public Imputer imputer() {
        return imputer;
    }

    public LogisticRegression logistic() {
        return logistic;
    }

    public GradientBoostedTrees boosted() {
        return boosted;
    }

    public ExtraTrees extraTrees() {
        return extraTrees;
    }

    @Override
    public void close() {
        boosted.close();
    }
}
