package io.raglog.training;

/**
 * What a tier gate's bounds reach on the runs they were chosen on: out-of-fold probabilities in training, so
 * optimistic only in that the bounds were tuned on them, like the thresholds. The bundle's evaluation report gives
 * the held-out figure.
 *
 * @param skipShare share of runs the gate decides without the LLM
 * @param callsSavedShare share of default mode's LLM calls those runs would have made
 * @param maxF1Loss the pooled stage-level F1 the gate was allowed to lose against default mode
 * @param confidence share of bootstrap replicates of these runs in which the loss had to stay within the budget
 * @param f1LossUpperBound the loss at that quantile of the replicates (within {@code maxF1Loss}), with the gate
 *     charged for its harm only, not credited where it beats default mode (see {@link TierGateSearch})
 */
public record TierValidation(int runs, int skippedRuns, double skipShare, double callsPerRunDefault,
        double callsPerRunTiered, double callsSavedShare, double defaultF1, double tieredF1, double defaultRunFpr,
        double tieredRunFpr, double maxF1Loss, double confidence, double f1LossUpperBound) {

    public double f1Loss() {
        return defaultF1 - tieredF1;
    }
}
