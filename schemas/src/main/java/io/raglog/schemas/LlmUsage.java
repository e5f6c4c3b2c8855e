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
 */
public record LlmUsage(int calls, long inputTokens, long outputTokens, Double costUsd, boolean degraded,
        List<String> degradedChecks, String judge) {}
