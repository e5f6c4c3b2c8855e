package io.raglog.training;

/**
 * How the knowledge-gap decision did on labeled runs: its own precision, recall and F1 against the labels'
 * {@code knowledge_gap}, and what clearing retrieval on decided gaps did to raglog's figures.
 *
 * @param decisions the gap decisions against the labels (every run counts, gap or not)
 * @param gapOnlyRuns runs whose only trouble is a knowledge gap: sound in the run-level false-positive rate
 * @param gapOnlyRunsFlagged of those, the runs raglog still flagged a stage on
 * @param retrievalFlagsCleared retrieval flags the rule cleared
 * @param retrievalFlagsClearedWrongly of those, the ones on runs whose retrieval was labeled faulty
 * @param withoutRule raglog on the same runs with the cleared retrieval flags put back: the figures before the rule
 */
public record KnowledgeGapReport(StageMetrics decisions, int gapOnlyRuns, int gapOnlyRunsFlagged,
        int retrievalFlagsCleared, int retrievalFlagsClearedWrongly, MethodReport withoutRule) {}
