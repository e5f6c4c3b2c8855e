package io.raglog.training;

import io.raglog.schemas.KnowledgeGap;
import io.raglog.schemas.Stage;
import io.raglog.schemas.Verdict;
import java.util.Set;

/** Counts the knowledge-gap decisions of an evaluation against the labels, run by run. */
final class KnowledgeGapTally {

    private final int[] decisions = new int[4];
    private int gapOnly;
    private int gapOnlyFlagged;

    void add(LabeledRun run, Set<Stage> scored, Verdict verdict) {
        KnowledgeGap gap = verdict.knowledgeGap();
        boolean truth = run.label().knowledgeGap();
        decisions[truth ? (gap.flagged() ? 0 : 2) : (gap.flagged() ? 1 : 3)]++;
        if (run.label().onlyKnowledgeGap()) {
            // sound for every stage: no stage could have answered, so any stage flag on it is a false positive
            gapOnly++;
            gapOnlyFlagged += verdict.flaggedStages().stream().anyMatch(scored::contains) ? 1 : 0;
        }
    }

    KnowledgeGapReport report() {
        return new KnowledgeGapReport(StageMetrics.of(decisions[0], decisions[1], decisions[2], decisions[3]),
                gapOnly, gapOnlyFlagged);
    }
}
