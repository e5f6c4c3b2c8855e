package io.raglog.feedback;

import io.raglog.schemas.Feedback;
import io.raglog.schemas.UserFeedback;
import io.raglog.schemas.Verdict;
import java.util.ArrayList;
import java.util.List;

/**
 * A verdict waiting in the join's state for feedback on its run.
 *
 * @param verdict as scoring wrote it, without feedback: what raglog decided on its own
 * @param at the run's event time, from which the wait is counted and questions are matched
 * @param feedback what users said so far
 * @param feedbackIds the feedback records already joined: a record written twice joins once
 */
record HeldVerdict(Verdict verdict, long at, UserFeedback feedback, List<String> feedbackIds) {

    static HeldVerdict of(Verdict verdict, long at) {
        return new HeldVerdict(verdict, at, UserFeedback.NONE, List.of());
    }

    boolean joined(Feedback f) {
        return feedbackIds.contains(f.feedbackId());
    }

    /** The verdict as it should now read: with its feedback once any joined, else as scored. */
    Verdict current() {
        return feedbackIds.isEmpty() ? verdict : verdict.withUserFeedback(feedback);
    }

    HeldVerdict with(Feedback f) {
        List<String> ids = new ArrayList<>(feedbackIds);
        ids.add(f.feedbackId());
        return new HeldVerdict(verdict, at, feedback.plus(f), ids);
    }
}
