package io.raglog.schemas;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * The generator call that produced the answer, or the pipeline's own relevance gate that stopped the run before one.
 *
 * @param context the passages actually in the prompt, in prompt order
 * @param prompt the full prompt text as sent (messages joined), kept so checks can read what the model saw
 * @param answer what the run answered; for a run its relevance gate stopped, raglog's sentence saying no answer was
 *     generated (a refusal, as the user got none)
 * @param gateReply null for a generator; for a run the pipeline's own relevance gate stopped (it judged the context
 *     insufficient, so nothing was generated), the gate's reply as it was sent, e.g. {@code INSUFFICIENT}; left out
 *     of the JSON when null, so a generator's stage is written byte for byte as before
 */
public record GenerateStage(boolean present, long latencyMs, List<String> callIds, String model,
        List<Passage> context, String prompt, String answer, TokenUsage usage, boolean streamed,
        @JsonInclude(JsonInclude.Include.NON_NULL) String gateReply)
        implements StageRecord {

    /**
     * The answer of a run its relevance gate stopped: what the user got, which is no answer. Worded as a refusal
     * ("insufficient context") so that every check reads the run as one whose answer declined.
     */
    public static final String GATE_STOPPED_ANSWER = "No answer was generated: the pipeline's relevance gate found "
            + "insufficient context to answer the question.";

    public GenerateStage(boolean present, long latencyMs, List<String> callIds, String model, List<Passage> context,
            String prompt, String answer, TokenUsage usage, boolean streamed) {
        this(present, latencyMs, callIds, model, context, prompt, answer, usage, streamed, null);
    }

    public static GenerateStage absent() {
        return new GenerateStage(false, 0, List.of(), null, List.of(), null, null, TokenUsage.UNKNOWN, false, null);
    }

    /** Whether the pipeline's own relevance gate stopped the run: the stage is the gate, and nothing was generated. */
    public boolean stoppedByGate() {
        return gateReply != null;
    }
}
