package io.raglog.score;

import io.raglog.schemas.PipelineThresholds;
import io.raglog.schemas.Stage;
import io.raglog.schemas.ThresholdsUsed;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

/**
 * The thresholds a run is decided with, and how its verdict names them: the bundle's own, or a pipeline's override
 * for the stages it names and the bundle's for the rest. An override holds only for the bundle whose probabilities it
 * was chosen on; a stage the bundle does not score stays unscored whatever an override says.
 */
public record ThresholdChoice(Map<Stage, Double> thresholds, ThresholdsUsed used) {

    public ThresholdChoice {
        thresholds = Collections.unmodifiableMap(new EnumMap<>(thresholds));
    }

    public static ThresholdChoice bundle(ModelBundle bundle) {
        return new ThresholdChoice(bundle.thresholds(), ThresholdsUsed.bundle(bundle.id()));
    }

    /** Whether {@code override} was computed for {@code bundle}: another bundle's probabilities are on another scale. */
    public static boolean fits(ModelBundle bundle, PipelineThresholds override) {
        return bundle.id().equals(override.modelBundle());
    }

    /** @throws IllegalArgumentException when the override was computed for another bundle ({@link #fits}) */
    public static ThresholdChoice of(ModelBundle bundle, PipelineThresholds override) {
        if (!fits(bundle, override)) {
            throw new IllegalArgumentException("thresholds " + override.label() + " were computed for bundle "
                    + override.modelBundle() + ", not " + bundle.id());
        }
        Map<Stage, Double> thresholds = bundle.thresholds();
        Map<Stage, Double> replaced = new EnumMap<>(Stage.class);
        override.byStage().forEach((stage, value) -> {
            Double own = thresholds.get(stage);
            if (own != null) {
                replaced.put(stage, own);
                thresholds.put(stage, value);
            }
        });
        return new ThresholdChoice(thresholds, ThresholdsUsed.override(override, replaced));
    }
}
