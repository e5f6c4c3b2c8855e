package io.raglog.simulator.pipeline;

/**
 * How a pipeline fits the passages handed on into its prompt: a budget in word pieces for the context, what it does
 * with the passage that overflows it, and the order it puts the passages in. Real frameworks differ on all three
 * (LangChain's stuff chain cuts nothing, LlamaIndex's compact drops whole nodes past the window, many services cut
 * each prompt at a character or token cap; some reverse the order so the best passage sits next to the question, some
 * put the best at both ends against "lost in the middle"), and a healthy run often loses a weak last passage to the
 * budget: only losing the passage that held the answer is a fault.
 *
 * @param tokens the context's budget in word pieces; null for no budget a context reaches
 * @param cuts true: the overflowing passage is cut at the budget and the rest dropped; false: it is dropped whole
 */
public record ContextBudget(Integer tokens, boolean cuts, Order order) {

    /** The order passages go into the prompt, from the order they were handed on (best first). */
    public enum Order {
        /** As handed on: best first. */
        AS_HANDED,
        /** Best last, next to the question (the budget is still spent best first). */
        BEST_LAST,
        /** Best at both ends, weakest in the middle (LongContextReorder). */
        ENDS_FIRST
    }

    public static final ContextBudget NONE = new ContextBudget(null, true, Order.AS_HANDED);
}
