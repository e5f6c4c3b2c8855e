package io.raglog.schemas;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which thresholds decided a verdict (v4): the model bundle's own, or a pipeline's override from
 * {@code raglog.thresholds} for the stages it names (the bundle's for the rest).
 *
 * @param version the bundle id when the bundle's thresholds decided, else the override's {@code PIPELINE/vN}
 * @param source {@value #BUNDLE}, or the override's {@code basis.source} (e.g. {@code reviews})
 * @param replaced for the audit: the bundle's thresholds of the stages the override replaced, by stage id; empty when
 *     the bundle's decided
 */
public record ThresholdsUsed(String version, String source, Map<String, Double> replaced) {

    /** The source of a verdict decided by the bundle's own thresholds. */
    public static final String BUNDLE = "bundle";

    public ThresholdsUsed {
        replaced = replaced == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(replaced));
    }

    /** The bundle's own thresholds decided (also a tier-skipped run's: the gate's bounds are the bundle's). */
    public static ThresholdsUsed bundle(String bundleId) {
        return new ThresholdsUsed(bundleId, BUNDLE, Map.of());
    }

    /** {@code override} decided the stages it names; {@code replaced} holds the bundle's thresholds for them. */
    public static ThresholdsUsed override(PipelineThresholds override, Map<Stage, Double> replaced) {
        Map<String, Double> ids = new LinkedHashMap<>();
        for (Stage stage : Stage.values()) { // pipeline order
            if (replaced.containsKey(stage)) {
                ids.put(stage.id(), replaced.get(stage));
            }
        }
        return new ThresholdsUsed(override.label(), override.basis().source(), ids);
    }
}
