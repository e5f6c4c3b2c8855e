package io.raglog.feedback;

import java.util.ArrayList;
import java.util.List;

/**
 * What the join must do when event time reaches one timestamp: a timer carries only its time, so the work is kept
 * beside it in state, and each timer touches only the entries it is for instead of scanning all of them.
 */
record DueWork(List<Item> items) {

    enum Kind {
        /** A verdict's wait for feedback is over: drop it. */
        VERDICT_EXPIRES,
        /** Feedback naming a run still has no verdict: it leaves as no_verdict. */
        FEEDBACK_EXPIRES,
        /** Every run within a question's window has been seen: join the nearest. */
        QUESTION_SEARCH,
        /** Question feedback found no run: it leaves as no_verdict. */
        QUESTION_EXPIRES
    }

    /**
     * @param key the run id, or the question key for the question kinds
     * @param feedbackId the feedback record the work is for; null for a verdict
     */
    record Item(Kind kind, String key, String feedbackId) {}

    static final DueWork NONE = new DueWork(List.of());

    DueWork plus(Item item) {
        List<Item> more = new ArrayList<>(items);
        more.add(item);
        return new DueWork(more);
    }
}
