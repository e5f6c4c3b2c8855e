package io.raglog.calls.mapping;

/**
 * Where an endpoint without a mapping stands, kept in keyed state next to its buffered calls.
 *
 * @param rejections proposals refused so far
 * @param lastRejection why the last one was refused; shown to the model on the next try
 * @param retryAt processing time of the scheduled retry, 0 when none is scheduled
 * @param gaveUp true once {@code maxAttempts} proposals were refused: the endpoint's calls stay unclassified
 * @param buffered calls held in the buffer (a list state has no cheap size)
 */
public record EndpointStatus(int rejections, String lastRejection, long retryAt, boolean gaveUp, int buffered) {

    static final EndpointStatus NEW = new EndpointStatus(0, null, 0, false, 0);

    EndpointStatus withOneMoreBuffered() {
        return new EndpointStatus(rejections, lastRejection, retryAt, gaveUp, buffered + 1);
    }

    EndpointStatus retryingAt(String reason, long at) {
        return new EndpointStatus(rejections + 1, reason, at, false, buffered);
    }

    EndpointStatus givenUp(String reason) {
        return new EndpointStatus(rejections + 1, reason, 0, true, 0);
    }

    /** The retry fired but the buffer held no call fit to show: the next such call triggers it. */
    EndpointStatus waitingForSample() {
        return new EndpointStatus(rejections, lastRejection, 0, false, buffered);
    }
}
