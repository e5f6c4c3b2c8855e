package io.raglog.llm;

/**
 * How one check of one run went.
 *
 * @param answer null when the check could not be answered
 * @param calls model calls made for it, retries included
 * @param costUsd null when the price is unknown
 * @param error why it could not be answered (already free of secrets), else null
 */
public record CheckOutcome(LlmCheck check, CheckAnswer answer, int calls, long inputTokens, long outputTokens,
        Double costUsd, String error) {

    public boolean failed() {
        return answer == null;
    }
}
