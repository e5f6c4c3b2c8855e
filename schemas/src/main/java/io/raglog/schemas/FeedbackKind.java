package io.raglog.schemas;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/**
 * What a user (or a detector watching users) said about a run's answer. {@code re_ask} is the same question asked
 * again soon after: a detector emits it as one more feedback record, so it joins and counts like a thumbs-down.
 */
public enum FeedbackKind {
    THUMBS, SCORE, COMMENT, CORRECTION, RE_ASK;

    @JsonValue
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }
}
