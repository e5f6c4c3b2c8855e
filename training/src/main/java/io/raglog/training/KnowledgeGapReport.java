package io.raglog.training;

/**
 * How the knowledge-gap decision did on labeled runs: its own precision, recall and F1 against the labels'
 * {@code knowledge_gap}, and how many runs whose only trouble is a gap raglog still flagged a stage on.
 *
 * @param decisions the gap decisions against the labels (every run counts, gap or not)
 * @param gapOnlyRuns runs whose only trouble is a knowledge gap: sound in the run-level false-positive rate
 * @param gapOnlyRunsFlagged of those, the runs raglog still flagged a stage on
 */
public record KnowledgeGapReport(StageMetrics decisions, int gapOnlyRuns, int gapOnlyRunsFlagged) {}
