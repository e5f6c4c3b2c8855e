package io.raglog.schemas;

import java.time.Instant;

/**
 * What users said about a run, summed over every feedback record joined to it ({@code user_feedback} in
 * {@code verdict.v4.json}).
 *
 * @param negative thumbs-down, low scores, corrections and re-asks
 * @param positive thumbs-up and high scores
 * @param neutral comments alone
 * @param comment the latest comment, null when none
 * @param correction the latest correction, null when none
 * @param lastAt when the latest feedback was given
 */
public record UserFeedback(int negative, int positive, int neutral, String comment, String correction,
        Instant lastAt) {

    public static final UserFeedback NONE = new UserFeedback(0, 0, 0, null, null, null);

    /** Any negative feedback: the run goes to the debugging queue even when raglog passed it. */
    public boolean disliked() {
        return negative > 0;
    }

    /** This summary with one more record; the latest comment and correction win, by event time. */
    public UserFeedback plus(Feedback f) {
        boolean later = lastAt == null || !f.at().isBefore(lastAt);
        return new UserFeedback(negative + (f.negative() ? 1 : 0), positive + (f.positive() ? 1 : 0),
                neutral + (f.negative() || f.positive() ? 0 : 1),
                f.comment() != null && (later || comment == null) ? f.comment() : comment,
                f.correction() != null && (later || correction == null) ? f.correction() : correction,
                later ? f.at() : lastAt);
    }
}
