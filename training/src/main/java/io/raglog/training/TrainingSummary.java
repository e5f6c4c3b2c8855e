package io.raglog.training;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What a bundle was trained on and how, so its figures can be read and its training repeated.
 *
 * @param trainingStages per stage id, present and faulty stage instances in the training split
 * @param origins runs by label origin ({@code injected}, {@code natural}, {@code sound})
 * @param thresholdObjective how the thresholds were chosen, in a sentence
 * @param validationF1 pooled stage-level F1 on the validation split at the chosen thresholds (optimistic: the
 *     thresholds were tuned on it; the evaluation report's test split is the honest figure)
 */
public record TrainingSummary(
        Instant trainedAt,
        int runs,
        int trainRuns,
        int validationRuns,
        int testRuns,
        Map<String, StageCounts> trainingStages,
        List<String> pipelines,
        List<String> profiles,
        Map<String, Integer> origins,
        String judge,
        String featureListVersion,
        Trainer.Settings settings,
        String thresholdObjective,
        double validationF1,
        double validationRunFpr) {

    public record StageCounts(int present, int faulty) {}
}
