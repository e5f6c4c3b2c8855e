package io.raglog.feedback;

import io.raglog.reask.ReAskSettings;
import java.io.Serializable;
import java.time.Duration;

/**
 * How long each side of the feedback join waits for the other, in event time.
 *
 * @param waitForVerdict how long feedback waits for its run's verdict; then it leaves as {@code no_verdict}
 * @param keepVerdict how long after its run a verdict waits for feedback; then it is dropped from state, and later
 *     feedback finds no verdict
 * @param questionWindow how far apart in time a question-only feedback record and a run asking that question may be
 * @param reAsks how re-asks are found and joined as negative feedback on the run re-asked; null: they are not looked for
 */
public record FeedbackSettings(Duration waitForVerdict, Duration keepVerdict, Duration questionWindow,
        ReAskSettings reAsks) implements Serializable {

    public static final FeedbackSettings DEFAULTS = new FeedbackSettings(Duration.ofHours(24), Duration.ofHours(24),
            Duration.ofMinutes(10), ReAskSettings.defaults());

    /** Without re-ask detection: only the feedback the pipeline writes. */
    public FeedbackSettings(Duration waitForVerdict, Duration keepVerdict, Duration questionWindow) {
        this(waitForVerdict, keepVerdict, questionWindow, null);
    }

    public FeedbackSettings {
        for (Duration d : new Duration[] {waitForVerdict, keepVerdict, questionWindow}) {
            if (d == null || d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("feedback waits must be positive durations, got " + d);
            }
        }
    }
}
