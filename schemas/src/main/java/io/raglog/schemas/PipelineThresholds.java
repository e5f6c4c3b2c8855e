package io.raglog.schemas;

import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One pipeline's threshold overrides ({@code schemas/thresholds.v1.json}), kept on the compacted topic
 * {@code raglog.thresholds} keyed by pipeline: the job scores that pipeline's next runs with these thresholds for the
 * stages named here and the model bundle's for the rest, as long as the bundle is the one they were computed for.
 *
 * @param version monotonic per pipeline; the job keeps the highest it has seen
 * @param modelBundle id of the bundle whose probabilities the thresholds were chosen on
 * @param thresholds by stage id, only the stages overridden; written in pipeline order
 * @param basis what the thresholds were chosen on
 */
public record PipelineThresholds(
        String schema,
        String pipeline,
        long version,
        String modelBundle,
        Map<String, Double> thresholds,
        Basis basis,
        Instant createdAt) {

    public static final String SCHEMA_V1 = "raglog.thresholds/v1";
    /** The {@code basis.source} of thresholds chosen on a team's reviews of the debugging queue. */
    public static final String SOURCE_REVIEWS = "reviews";

    /**
     * @param reviewedRuns how many labeled runs of the pipeline the thresholds were chosen on
     * @param maxFpr the largest run-level false-positive rate they were chosen for
     * @param source where the labels came from, e.g. {@value #SOURCE_REVIEWS}
     */
    public record Basis(int reviewedRuns, double maxFpr, String source) {}

    /** @throws IllegalArgumentException naming what is wrong: such a record must not reach scoring */
    public PipelineThresholds {
        require(SCHEMA_V1.equals(schema), "schema must be " + SCHEMA_V1 + ", was " + schema);
        require(pipeline != null && !pipeline.isBlank(), "pipeline is missing");
        require(version >= 1, "version must be 1 or more, was " + version);
        require(modelBundle != null && !modelBundle.isBlank(), "model_bundle is missing");
        require(thresholds != null, "thresholds are missing");
        require(basis != null && basis.source() != null && !basis.source().isBlank(), "basis.source is missing");
        require(createdAt != null, "created_at is missing");
        Map<Stage, Double> byStage = new EnumMap<>(Stage.class);
        thresholds.forEach((id, value) -> {
            Stage stage;
            try {
                stage = Stage.of(id);
            } catch (IllegalArgumentException | NullPointerException e) {
                throw new IllegalArgumentException("thresholds: no stage '" + id + "'");
            }
            require(value != null && value >= 0 && value <= 1, "thresholds." + id + " must be in [0, 1], was " + value);
            byStage.put(stage, value);
        });
        Map<String, Double> ordered = new LinkedHashMap<>();
        byStage.forEach((stage, value) -> ordered.put(stage.id(), value));
        thresholds = Collections.unmodifiableMap(ordered);
    }

    /** A new override of {@code byStage} (the stages it replaces). */
    public static PipelineThresholds of(String pipeline, long version, String modelBundle, Map<Stage, Double> byStage,
            Basis basis, Instant createdAt) {
        Map<String, Double> ids = new LinkedHashMap<>();
        byStage.forEach((stage, value) -> ids.put(stage.id(), value));
        return new PipelineThresholds(SCHEMA_V1, pipeline, version, modelBundle, ids, basis, createdAt);
    }

    public Map<Stage, Double> byStage() {
        Map<Stage, Double> out = new EnumMap<>(Stage.class);
        thresholds.forEach((id, value) -> out.put(Stage.of(id), value));
        return out;
    }

    /** How a verdict names these thresholds: {@code PIPELINE/vN}. */
    public String label() {
        return pipeline + "/v" + version;
    }

    private static void require(boolean condition, String problem) {
        if (!condition) {
            throw new IllegalArgumentException(problem);
        }
    }
}
