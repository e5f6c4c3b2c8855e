package io.raglog.feedback;

import io.raglog.schemas.Feedback;
import java.util.ArrayList;
import java.util.List;

/** Feedback records waiting in the join's state for the same run (or the same question), in arrival order. */
record WaitingFeedback(List<Feedback> records) {

    static final WaitingFeedback NONE = new WaitingFeedback(List.of());

    boolean holds(String feedbackId) {
        return records.stream().anyMatch(f -> f.feedbackId().equals(feedbackId));
    }

    WaitingFeedback plus(Feedback f) {
        List<Feedback> more = new ArrayList<>(records);
        more.add(f);
        return new WaitingFeedback(more);
    }

    WaitingFeedback without(String feedbackId) {
        return new WaitingFeedback(records.stream().filter(f -> !f.feedbackId().equals(feedbackId)).toList());
    }

    Feedback find(String feedbackId) {
        return records.stream().filter(f -> f.feedbackId().equals(feedbackId)).findFirst().orElse(null);
    }
}
