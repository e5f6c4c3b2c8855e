package io.raglog.score;

import io.raglog.schemas.StageVerdict.ModelProbabilities;

/**
 * One stage's three models over the whole run's features (a fault leaves traces in later stages, so every stage's
 * classifier reads every feature). Logistic regression and extra-trees read the imputed row, XGBoost the raw one.
 */
public final class StageModel implements AutoCloseable {

    /** How the three models are trained; each records in the bundle's training summary. */
    public record Settings(double logisticL2, ExtraTrees.Settings extraTrees, GradientBoostedTrees.Settings boosting) {

        public static Settings defaults(long seed) {
            return new Settings(1.0, ExtraTrees.Settings.defaults(seed), GradientBoostedTrees.Settings.defaults(seed));
        }
    }

    private final Imputer imputer;
    private final LogisticRegression logistic;
    private final GradientBoostedTrees boosted;
    private final ExtraTrees extraTrees;

    public StageModel(Imputer imputer, LogisticRegression logistic, GradientBoostedTrees boosted,
            ExtraTrees extraTrees) {
        this.imputer = imputer;
        this.logistic = logistic;
        this.boosted = boosted;
        this.extraTrees = extraTrees;
    }

    /** @param raw rows of the stage's runs, NaN for missing; @param y 1 faulty, 0 sound */
    public static StageModel fit(double[][] raw, int[] y, Settings settings) {
        Imputer imputer = Imputer.fit(raw, raw[0].length);
        double[][] imputed = imputer.apply(raw);
        return new StageModel(imputer,
                LogisticRegression.fit(imputed, y, settings.logisticL2()),
                GradientBoostedTrees.fit(raw, y, settings.boosting()),
                ExtraTrees.fit(imputed, y, settings.extraTrees()));
    }

    public ModelProbabilities predict(double[] raw) {
        double[] imputed = imputer.apply(raw);
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
