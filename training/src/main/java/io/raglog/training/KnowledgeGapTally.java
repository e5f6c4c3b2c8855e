package io.raglog.training;

import io.raglog.schemas.KnowledgeGap;
import io.raglog.schemas.Stage;
import io.raglog.schemas.Verdict;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Counts the knowledge-gap decisions of an evaluation against the labels, run by run, and keeps raglog's decisions
 * with the cleared retrieval flags put back, so one evaluation gives the figures with and without the rule.
 */
final class KnowledgeGapTally {

    private final int[] decisions = new int[4];
    private final List<RunOutcome> withoutRule = new ArrayList<>();
    private int gapOnly;
    private int gapOnlyFlagged;
    private int cleared;
    private int clearedWrongly;

    void add(LabeledRun run, Set<Stage> scored, Verdict verdict) {
        KnowledgeGap gap = verdict.knowledgeGap();
        boolean truth = run.label().knowledgeGap();
        decisions[truth ? (gap.flagged() ? 0 : 2) : (gap.flagged() ? 1 : 3)]++;
        Set<Stage> flagged = new LinkedHashSet<>(verdict.flaggedStages());
        Set<Stage> before = new LinkedHashSet<>(flagged);
        if (gap.clearedRetrieve()) {
            before.add(Stage.RETRIEVE);
            cleared++;
            clearedWrongly += run.faulty(Stage.RETRIEVE) ? 1 : 0;
        }
        withoutRule.add(Evaluator.outcome(run, scored, before));
        if (run.label().onlyKnowledgeGap()) {
            // sound for every stage: no stage could have answered, so any stage flag on it is a false positive
            gapOnly++;
            gapOnlyFlagged += flagged.stream().anyMatch(scored::contains) ? 1 : 0;
        }
    }

    KnowledgeGapReport report() {
        return new KnowledgeGapReport(StageMetrics.of(decisions[0], decisions[1], decisions[2], decisions[3]),
                gapOnly, gapOnlyFlagged, cleared, clearedWrongly,
                MethodReport.of("raglog without the knowledge-gap rule",
                        "raglog with the retrieval flags the knowledge-gap rule cleared put back", withoutRule));
    }
}
