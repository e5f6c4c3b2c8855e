package io.raglog.schemas;

import java.util.List;

/**
 * One feedback record after the join ({@code schemas/run-feedback.v1.json}, topic {@code raglog.run-feedback}):
 * the feedback, the run it was found to be about, and what raglog had decided about that run. Exactly one per
 * feedback record, joined or not.
 *
 * @param runId the run the feedback is about; null when no verdict was found within the wait
 * @param outcome {@link #JOINED}, or {@link #NO_VERDICT} when the run had no verdict within the wait (not sampled,
 *     never assembled, or the locator named no run)
 * @param matchedBy how the run was found: run_id, run_hint, trace_id or question; null when it was not
 * @param negative the feedback is a dislike ({@link Feedback#negative()})
 * @param raglogQueued raglog itself had queued the run (a flagged stage or a knowledge gap); null when not joined
 * @param queueReasons the verdict's queue reasons, user feedback included; empty when not joined
 */
public record RunFeedback(String schema, String runId, String pipeline, String outcome, String matchedBy,
        boolean negative, Boolean raglogQueued, List<String> queueReasons, Feedback feedback) {

    public static final String SCHEMA_V1 = "raglog.run-feedback/v1";
    public static final String JOINED = "joined";
    public static final String NO_VERDICT = "no_verdict";

    public static RunFeedback joined(Verdict before, Verdict after, String matchedBy, Feedback f) {
        return new RunFeedback(SCHEMA_V1, before.runId(), f.pipeline(), JOINED, matchedBy, f.negative(),
                before.queued(), after.queueReasons(), f);
    }

    public static RunFeedback noVerdict(Feedback f) {
        return new RunFeedback(SCHEMA_V1, null, f.pipeline(), NO_VERDICT, null, f.negative(), null, List.of(), f);
    }
}
