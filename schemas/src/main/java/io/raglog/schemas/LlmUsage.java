package io.raglog.schemas;

import java.util.List;

/**
 * What the LLM checks of one run cost and whether they all answered.
 *
 * @param calls model calls made, retries included (an offline judge counts its answers as calls, with no tokens)
 * @param costUsd null when no price is known for the model; 0 for the offline judge
 * @param degraded true when at least one check could not be answered: its features are missing, the run is kept
 * @param degradedChecks the checks that could not be answered, e.g. {@code ["support"]}
 * @param judge who answered: {@code offline-judge/v1}, or the provider and model, e.g. {@code openai:gpt-4o-mini}
 * @param tier in tiered mode, what the tier gate decided: {@link #TIER_SKIPPED} (the cheap checks decided the run, no
 *     LLM call was made and no LLM feature is known) or {@link #TIER_CHECKED}; null outside tiered mode
 */
public record LlmUsage(int calls, long inputTokens, long outputTokens, Double costUsd, boolean degraded,
        List<String> degradedChecks, String judge, String tier) {

    public static final String TIER_SKIPPED = "skipped";
    public static final String TIER_CHECKED = "checked";

    /** Usage outside tiered mode (no tier decision). */
    public LlmUsage(int calls, long inputTokens, long outputTokens, Double costUsd, boolean degraded,
            List<String> degradedChecks, String judge) {
        this(calls, inputTokens, outputTokens, costUsd, degraded, degradedChecks, judge, null);
    }

    /** True when the tier gate let this run bypass the LLM checks. */
    public boolean tierSkipped() {
        return TIER_SKIPPED.equals(tier);
    }

    /** The same usage with the tier gate's decision recorded. */
    public LlmUsage withTier(String newTier) {
        return new LlmUsage(calls, inputTokens, outputTokens, costUsd, degraded, degradedChecks, judge, newTier);
    }
}
