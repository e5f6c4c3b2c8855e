package io.raglog.schemas;

import java.time.Instant;

/**
 * One piece of user feedback on a run's answer ({@code schemas/feedback.v1.json}), as a pipeline's front end (or a
 * re-ask detector) writes it to {@code raglog.feedback}. The run is found by the first locator given: its run id, its
 * run hint (the pipeline's own request id, as the proxy recorded it), its trace id (runs captured as OTLP spans), or
 * else the run of the pipeline that asked this question nearest to {@code at}.
 *
 * @param feedbackId the producer's id for this record: the same record written twice joins once
 * @param thumbs {@code up} or {@code down}, for kind {@code thumbs}
 * @param score the rating and its scale, for kind {@code score}
 * @param comment free text, required for kind {@code comment}, allowed with any kind
 * @param correction what the answer should have been, for kind {@code correction}
 * @param at when the user gave it (event time)
 * @param source who wrote the record (a widget, a detector), for whoever reads it; optional
 */
public record Feedback(String schema, String feedbackId, String pipeline, FeedbackKind kind, String thumbs,
        FeedbackScore score, String comment, String correction, Instant at, String runId, String runHint,
        String traceId, String question, String source) {

    public static final String SCHEMA_V1 = "raglog.feedback/v1";
    public static final String THUMBS_UP = "up";
    public static final String THUMBS_DOWN = "down";
    /**
     * A score below the middle of its scale is a dislike: 1 or 2 of 5 stars, 0 to 4 of 10. Scales differ by
     * pipeline; the middle is the one point every scale shares.
     */
    public static final double DISLIKED_BELOW = 0.5;

    /**
     * Whether the user disliked the answer: a thumbs-down, a score in the bottom half of its scale, a correction (the
     * answer was wrong enough to rewrite) or a re-ask (it did not answer). A comment alone says neither.
     */
    public boolean negative() {
        return switch (kind) {
            case THUMBS -> THUMBS_DOWN.equals(thumbs);
            case SCORE -> score.normalized() < DISLIKED_BELOW;
            case CORRECTION, RE_ASK -> true;
            case COMMENT -> false;
        };
    }

    /** Whether the user liked it: a thumbs-up or a score in the top half. */
    public boolean positive() {
        return switch (kind) {
            case THUMBS -> THUMBS_UP.equals(thumbs);
            case SCORE -> score.normalized() >= DISLIKED_BELOW;
            default -> false;
        };
    }
}
