package io.raglog.assemble;

import io.raglog.schemas.Run;

/**
 * What an incomplete run's reason says about it. An incomplete run is written to {@code raglog.runs} for a person to
 * look at, never checked or scored: without its generator call there is no answer to judge, and an orphan (calls no
 * run claimed, split off the run they belonged to) is not even a question of its own; checking either cost LLM calls
 * and gave verdicts about runs that did not exist.
 */
public final class IncompleteRuns {

    /**
     * How the reason of an orphan starts ({@code incomplete_reason} is the run's "why" field in {@code run.v1}; the
     * prefix keeps the contract as it is while letting readers tell orphans from abandoned runs).
     */
    public static final String ORPHAN_PREFIX = "orphan: ";

    private IncompleteRuns() {}

    /** Calls that no run claimed: no rewrite and no generator among them, so no question of their own. */
    public static boolean orphan(Run run) {
        return run.incomplete() && run.incompleteReason() != null
                && run.incompleteReason().startsWith(ORPHAN_PREFIX);
    }
}
