package io.raglog.simulator.pipeline;

import io.raglog.simulator.corpus.Chunk;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * How a pipeline fits the passages handed on into its prompt: a budget in word pieces for the context, what it does
 * with the passage that overflows it, and the order it puts the passages in. Real frameworks differ on all three
 * (LangChain's stuff chain cuts nothing, LlamaIndex's compact drops whole nodes past the window, many services cut
 * each prompt at a character or token cap; some reverse the order so the best passage sits next to the question, some
 * put the best at both ends against "lost in the middle"; some spend the budget in the documents' own order, not the
 * ranking's), and a healthy run often loses a passage to the budget: only losing the passage that held the answer is
 * a fault.
 *
 * @param tokens the context's budget in word pieces; null for no budget a context reaches
 * @param cuts true: the overflowing passage is cut at the budget and the rest dropped; false: it is dropped whole
 * @param order the order the kept passages go into the prompt
 * @param fill the order the budget is spent in: what the pipeline does to every run, so a passage it loses to the
 *     budget is lost by the same code whether it held the answer or not
 */
public record ContextBudget(Integer tokens, boolean cuts, Order order, Fill fill) {

    /** A budget spent best first, as most pipelines spend it. */
    public ContextBudget(Integer tokens, boolean cuts, Order order) {
        this(tokens, cuts, order, Fill.BEST_FIRST);
    }

    /** The order passages go into the prompt, from the order they were handed on (best first). */
    public enum Order {
        /** In the order the budget was spent in (as handed on, best first, unless the fill says otherwise). */
        AS_HANDED,
        /** Best last, next to the question (the budget is still spent in the fill order). */
        BEST_LAST,
        /** Best at both ends, weakest in the middle (LongContextReorder). */
        ENDS_FIRST
    }

    /** The order the budget is spent in, from the order the passages were handed on. */
    public enum Fill {
        /** As handed on: the budget runs out on the weakest passages. */
        BEST_FIRST,
        /**
         * The documents' own order (by document, then by where the passage starts in it): a pipeline that restores
         * reading order so that neighbouring chunks read on, and fills the prompt before it looks at the ranking
         * again. The budget runs out on whatever comes last in the documents, the best passage as often as any.
         */
        DOCUMENT_ORDER;

        /** {@code handedOn} (best first) in the order the budget is spent in. */
        public List<Chunk> arrange(List<Chunk> handedOn) {
            if (this == BEST_FIRST) {
                return handedOn;
            }
            List<Chunk> out = new ArrayList<>(handedOn);
            out.sort(Comparator.comparing(Chunk::docId).thenComparingInt(Chunk::start));
            return out;
        }
    }

    public static final ContextBudget NONE = new ContextBudget(null, true, Order.AS_HANDED);

    /**
     * The share of runs whose context has the whole budget: a conversation's first turn, nothing else in the prompt.
     * The others' chat history, retrieved memories or few-shot examples take part of it first.
     */
    static final double WHOLE_ROOM_SHARE = 0.5;

    /** The least share of the budget a run's context is left (a long conversation in a small window). */
    static final double LEAST_ROOM = 0.25;

    /**
     * This run's budget: what the rest of its prompt left of the pipeline's. A team's prompt is more than its context,
     * so a healthy pipeline's context often gets much less room than its usual share, and the passages it loses vary
     * from run to run with what was said before; a real client with a 700-character context (the JavaScript clients'
     * test) loses two thirds of what its reranker hands on, and keeps the answer. Losing the answer to that is a fault
     * like any other, and labeled as one.
     */
    public ContextBudget forRun(SplittableRandom rng) {
        if (tokens == null || rng.nextDouble() < WHOLE_ROOM_SHARE) {
            return this;
        }
        int room = (int) Math.round(tokens * (LEAST_ROOM + (1 - LEAST_ROOM) * rng.nextDouble()));
        return new ContextBudget(Math.max(1, room), cuts, order, fill);
    }
}
