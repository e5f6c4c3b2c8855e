package io.raglog.training;

import io.raglog.score.ExtraTrees;
import io.raglog.score.GradientBoostedTrees;
import io.raglog.score.Imputer;
import io.raglog.score.LogisticRegression;

/**
 * A stage's three models as training makes them: the runtime {@link io.raglog.score.StageModel} (which a bundle
 * stores, loads and scores with) plus how they are fitted. Same simple name on purpose: {@link Trainer} reads the
 * same whichever module it sits in.
 */
public final class StageModel extends io.raglog.score.StageModel {

    /** How the three models are trained; each records in the bundle's training summary. */
    public record Settings(double logisticL2, ExtraTreesFit.Settings extraTrees,
            GradientBoostedTreesFit.Settings boosting) {

        public static Settings defaults(long seed) {
            return new Settings(1.0, ExtraTreesFit.Settings.defaults(seed),
                    GradientBoostedTreesFit.Settings.defaults(seed));
        }
    }

    private StageModel(Imputer imputer, LogisticRegression logistic, GradientBoostedTrees boosted,
            ExtraTrees extraTrees) {
        super(imputer, logistic, boosted, extraTrees);
    }

    /** @param raw rows of the stage's runs, NaN for missing; @param y 1 faulty, 0 sound */
    public static StageModel fit(double[][] raw, int[] y, Settings settings) {
        Imputer imputer = ImputerFit.fit(raw, raw[0].length);
        double[][] imputed = imputer.apply(raw);
        return new StageModel(imputer,
                LogisticRegressionFit.fit(imputed, y, settings.logisticL2()),
                GradientBoostedTreesFit.fit(raw, y, settings.boosting()),
                ExtraTreesFit.fit(imputed, y, settings.extraTrees()));
    }
}
