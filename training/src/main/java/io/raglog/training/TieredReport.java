package io.raglog.training;

/**
 * Tiered mode on the same labeled runs and features as default mode: runs the bundle's tier gate skips are decided by
 * the gate, the others exactly as in default mode. The LLM figures come from the runs' own usage: a skipped run's
 * calls and tokens are the ones saved, so no second LLM pass is needed.
 *
 * @param raglog tiered mode's figures, like the default row's
 * @param f1Loss default mode's pooled stage F1 minus tiered mode's (the goal is at most 0.01)
 * @param callsSavedShare share of default mode's LLM calls the skipped runs made
 */
public record TieredReport(MethodReport raglog, int skippedRuns, double skipShare, double callsPerRunDefault,
        double callsPerRunTiered, double callsSavedShare, double inputTokensPerRunDefault,
        double inputTokensPerRunTiered, double outputTokensPerRunDefault, double outputTokensPerRunTiered,
        double f1Loss) {}
