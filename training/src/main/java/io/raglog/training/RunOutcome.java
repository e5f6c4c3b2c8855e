package io.raglog.training;

import io.raglog.schemas.LabelStages;
import io.raglog.schemas.Stage;
import java.util.Set;

/**
 * One run as a method decided it, next to the truth.
 *
 * @param scored the run's stages that count: present in the run and labeled
 * @param flagged the stages the method flagged (only scored ones count)
 */
public record RunOutcome(String runId, Set<Stage> scored, Set<Stage> flagged, LabelStages truth,
        boolean answerCorrect) {

    public boolean faulty() {
        return truth != null && truth.anyFaulty();
    }

    /** At least one truly faulty stage was flagged. */
    public boolean caught() {
        for (Stage stage : flagged) {
            if (scored.contains(stage) && truth.faulty(stage)) {
                return true;
            }
        }
        return false;
    }

    public boolean anyFlagged() {
        for (Stage stage : flagged) {
            if (scored.contains(stage)) {
                return true;
            }
        }
        return false;
    }
}
