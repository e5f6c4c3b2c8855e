package io.raglog.score;

import java.time.Instant;
import java.util.List;

/** Trained bundles and scoring inputs for tests outside this package (the Flink function's). */
public final class TestBundles {

    private TestBundles() {}

    public static ModelBundle trainedBundle() {
        return Trainer.train(SyntheticRuns.generate(300, 30), Trainer.Settings.defaults("flink-test"),
                Instant.parse("2026-11-29T00:00:00Z"));
    }

    public static List<ScoringInput> scoringInputs(int runs, long seed) {
        return SyntheticRuns.generate(runs, seed).stream().map(LabeledRun::input).toList();
    }
}
