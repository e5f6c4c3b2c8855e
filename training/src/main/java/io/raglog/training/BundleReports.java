package io.raglog.training;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import io.raglog.score.ModelBundle;

/**
 * A bundle's reports as this module's records. The bundle carries them as the JSON they were written to (scoring never
 * reads them, so the runtime does not know their types); these read them back.
 */
public final class BundleReports {

    private BundleReports() {}

    /** What the bundle was trained on and how; null for a bundle written without one. */
    public static TrainingSummary training(ModelBundle bundle) {
        return read(bundle.training(), TrainingSummary.class);
    }

    /** The held-out evaluation, or null when the bundle was trained without a test split. */
    public static EvaluationReport evaluation(ModelBundle bundle) {
        return read(bundle.evaluation(), EvaluationReport.class);
    }

    /** What the tier gate's bounds reached on the runs that chose them, or null without a gate. */
    public static TierValidation tierValidation(ModelBundle bundle) {
        ModelBundle.GateManifest gate = bundle.manifest().tierGate();
        return gate == null ? null : read(gate.validation(), TierValidation.class);
    }

    private static <T> T read(JsonNode node, Class<T> type) {
        if (node == null || node.isNull()) {
            return null;
        }
        try {
            return Json.MAPPER.treeToValue(node, type);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the bundle's " + type.getSimpleName() + " does not read: "
                    + e.getOriginalMessage(), e);
        }
    }
}
