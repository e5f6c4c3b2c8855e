package io.raglog.reask;

import io.raglog.schemas.Feedback;
import io.raglog.schemas.FeedbackKind;
import java.time.Instant;

/**
 * A run that asks again, in other words, what an earlier run of the same user was asked: the user was most likely not
 * served by the earlier answer. The earlier run is the one this marks ({@link #earlierRunId}); the later run is only
 * the evidence.
 *
 * @param session null when both runs came without a session and were matched within the pipeline
 * @param similarity the paraphrase score that passed {@link ReAskSettings#threshold()}, within [0, 1]
 * @param secondsBetween from the earlier question to this one
 */
public record ReAsk(String pipeline, String session, String runId, String earlierRunId, double similarity,
        long secondsBetween, String question, String earlierQuestion, Instant askedAt) {

    /** Who writes the feedback a re-ask becomes, as {@code raglog.feedback/v1}'s {@code source} says it. */
    public static final String SOURCE = "raglog re-ask detector";

    /**
     * The re-ask as the negative feedback it is on the earlier run: what the feedback join, the negative-feedback
     * rate and the debugging queue read. Its id is the re-asking run's, so a run replayed after a restore is one
     * re-ask, once.
     */
    public Feedback asFeedback() {
        return new Feedback(Feedback.SCHEMA_V1, "re-ask:" + runId, pipeline, FeedbackKind.RE_ASK, null, null,
                "asked again " + secondsBetween + " s later as: " + question, null, askedAt, earlierRunId, null, null,
                null, SOURCE);
    }
}
