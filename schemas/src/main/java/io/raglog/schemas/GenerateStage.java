package io.raglog.schemas;

import java.util.List;

/**
 * The generator call that produced the answer.
 *
 * @param context the passages actually in the prompt, in prompt order
 * @param prompt the full prompt text as sent (messages joined), kept so checks can read what the model saw
 */
public record GenerateStage(boolean present, long latencyMs, List<String> callIds, String model,
        List<Passage> context, String prompt, String answer, TokenUsage usage, boolean streamed)
        implements StageRecord {

    public static GenerateStage absent() {
        return new GenerateStage(false, 0, List.of(), null, List.of(), null, null, TokenUsage.UNKNOWN, false);
    }
}
