package io.raglog.score;

import io.raglog.schemas.Stage;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.SplittableRandom;

/** A bundle with hand-set models and scoring inputs for it, for tests outside this package (the Flink function's). */
public final class TestBundles {

    private TestBundles() {}

    /** {@link FixedBundles}' bundle, thresholds at 0.5: judge {@code offline-judge/v1}. */
    public static ModelBundle fixedBundle() {
        return FixedBundles.withThresholds(FixedBundles.thresholds(0.5, 0.5, 0.5, 0.5, 0.5));
    }

    /** Runs of every stage whose feature {@code x} is drawn from [0, 1) with this seed. */
    public static List<ScoringInput> scoringInputs(int runs, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<ScoringInput> out = new ArrayList<>(runs);
        for (int i = 0; i < runs; i++) {
            out.add(new ScoringInput(FixedBundles.features("run-" + seed + "-" + i, random.nextDouble(), null),
                    EnumSet.allOf(Stage.class), "answer " + i));
        }
        return out;
    }
}
