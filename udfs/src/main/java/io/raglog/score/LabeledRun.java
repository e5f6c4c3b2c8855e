package io.raglog.score;

import io.raglog.schemas.Label;
import io.raglog.schemas.Stage;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/** A run's scoring input joined with its ground truth by run id: what training and evaluation read. */
public record LabeledRun(ScoringInput input, Label label) {

    public LabeledRun {
        Objects.requireNonNull(input, "input");
        Objects.requireNonNull(label, "label");
        if (!Objects.equals(input.features().runId(), label.runId())) {
            throw new IllegalArgumentException("features of run " + input.features().runId()
                    + " joined with the label of run " + label.runId());
        }
    }

    public String runId() {
        return label.runId();
    }

    /** Stages that are both present in the run and labeled: the stage instances a model is trained and judged on. */
    public Set<Stage> scoredStages() {
        Set<Stage> out = EnumSet.noneOf(Stage.class);
        for (Stage stage : Stage.values()) {
            if (input.has(stage) && label.stages() != null && label.stages().get(stage) != null) {
                out.add(stage);
            }
        }
        return out;
    }

    /**
     * The stages a model is trained on: the scored ones, less retrieval on a knowledge-gap run it did not fail. Its
     * passages hold no answer because none exists, which no feature can tell from a retrieval miss; the knowledge-gap
     * rule owns that case, so the retrieval model is not taught that "no passage answers" is sometimes sound.
     */
    public Set<Stage> trainedStages() {
        Set<Stage> out = scoredStages();
        if (label.knowledgeGap() && !faulty(Stage.RETRIEVE)) {
            out.remove(Stage.RETRIEVE);
        }
        return out;
    }

    public boolean faulty(Stage stage) {
        return label.stages() != null && label.stages().faulty(stage);
    }
}
