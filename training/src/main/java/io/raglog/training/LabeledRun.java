package io.raglog.training;

import io.raglog.schemas.Label;
import io.raglog.schemas.Stage;
import io.raglog.score.ScoringInput;
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

    /**
     * What keeps runs together when runs are split for fitting and testing: the question's id, else its text (a
     * reviewed run of a real pipeline has no id, and a question asked again is the same question), else the run.
     */
    public String questionKey() {
        if (label.questionId() != null && !label.questionId().isBlank()) {
            return "id:" + label.questionId();
        }
        if (label.question() != null && !label.question().isBlank()) {
            return "question:" + label.question().strip();
        }
        return "run:" + label.runId();
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
     * The stages a model is trained on: the scored ones. Retrieval is trained on knowledge-gap runs too, as sound
     * unless it also failed: their passages hold no answer because none exists, and the known-passages features
     * (nothing the pipeline is known to hold matches the question better) are what teach the model that case.
     */
    public Set<Stage> trainedStages() {
        return scoredStages();
    }

    public boolean faulty(Stage stage) {
        return label.stages() != null && label.stages().faulty(stage);
    }
}
