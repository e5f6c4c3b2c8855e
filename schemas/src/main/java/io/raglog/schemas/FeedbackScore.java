package io.raglog.schemas;

/**
 * A rating on the user's own scale (1–5 stars, 0–10 NPS): the scale travels with the value, since pipelines differ.
 *
 * @param value the rating, within [min, max]
 */
public record FeedbackScore(double value, double min, double max) {

    /** Where the value sits on its scale, 0 at the bottom and 1 at the top. */
    public double normalized() {
        return (value - min) / (max - min);
    }
}
