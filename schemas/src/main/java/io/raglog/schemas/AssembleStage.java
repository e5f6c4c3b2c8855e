package io.raglog.schemas;

import java.util.List;

/**
 * Context assembly: what became of each passage handed on to the prompt (the reranker's output, else what retrieval
 * returned) between the stage that chose it and the generator's prompt. It is the pipeline's own code (a context
 * budget, a template, an ordering), so no call of its own shows it: raglog reads it from both sides.
 *
 * @param handedOnBy {@code rerank} or {@code retrieve}: whose output was handed on
 * @param passages every passage handed on, in the order it was handed on, with its fate in the prompt
 * @param promptTokens the generator's input tokens as its provider reported them, null when it did not say
 * @param contextWindow the generator model's context window in tokens, where raglog knows the model; else null
 */
public record AssembleStage(boolean present, String handedOnBy, List<PassageFate> passages, Integer promptTokens,
        Integer contextWindow) implements StageRecord {

    public static final String BY_RERANK = "rerank";
    public static final String BY_RETRIEVE = "retrieve";

    public AssembleStage {
        passages = passages == null ? List.of() : List.copyOf(passages);
    }

    public static AssembleStage absent() {
        return new AssembleStage(false, null, List.of(), null, null);
    }

    /** Assembly makes no call: it is code between the calls. */
    @Override
    public long latencyMs() {
        return 0;
    }

    @Override
    public List<String> callIds() {
        return List.of();
    }

    /** Passages handed on that did not reach the prompt whole (cut or dropped). */
    public long lost() {
        return passages.stream().filter(p -> p.fate() != PassageFate.Fate.WHOLE).count();
    }
}
