package io.raglog.simulator.pipeline;

import java.util.List;

/**
 * How a pipeline's models phrase what they produce when nothing goes wrong: the variety a real client shows and a
 * checker must not take for a fault.
 *
 * @param rewrites the rewriter's styles, drawn per run (ignored when the pipeline does not rewrite)
 * @param embedPrefix what the embedding model family wants before a query (E5 {@code "query: "}, BGE's instruction,
 *     nomic's {@code "search_query: "}; empty for OpenAI): the text sent is the prefix plus the query, and the model,
 *     trained with it, embeds the query
 * @param embedTokenLimit the client's cap on the text it embeds, in word pieces (sentence-transformers'
 *     {@code max_seq_length}); a longer text is cut there without a word of warning. Null: no cap that a query reaches
 * @param answers how the generator dresses its answers, drawn per run
 * @param refusals what the generator says when it does not know, one drawn per refusal
 * @param wrongFieldRate share of runs in which the pipeline's code embeds the wrong field (the question with its chat
 *     history, the rewrite prompt) instead of the query: a natural embed fault
 * @param contextBudget how the passages handed on are fitted into the prompt
 * @param gate the pipeline's own relevance gate before generation, null when it has none
 */
public record PipelineStyle(Mix<RewriteStyle> rewrites, String embedPrefix, Integer embedTokenLimit,
        Mix<AnswerStyle> answers, List<String> refusals, double wrongFieldRate, ContextBudget contextBudget,
        RelevanceGate gate) {

    /** A pipeline that puts every passage handed on into its prompt, best first, and has no gate. */
    public PipelineStyle(Mix<RewriteStyle> rewrites, String embedPrefix, Integer embedTokenLimit,
            Mix<AnswerStyle> answers, List<String> refusals, double wrongFieldRate) {
        this(rewrites, embedPrefix, embedTokenLimit, answers, refusals, wrongFieldRate, ContextBudget.NONE, null);
    }

    public PipelineStyle withContextBudget(ContextBudget budget) {
        return new PipelineStyle(rewrites, embedPrefix, embedTokenLimit, answers, refusals, wrongFieldRate, budget,
                gate);
    }

    public PipelineStyle withRelevanceGate(RelevanceGate relevanceGate) {
        return new PipelineStyle(rewrites, embedPrefix, embedTokenLimit, answers, refusals, wrongFieldRate,
                contextBudget, relevanceGate);
    }

    public static final String E5 = "query: ";
    public static final String BGE = "Represent this sentence for searching relevant passages: ";
    public static final String NOMIC = "search_query: ";
    public static final String NONE = "";

    public PipelineStyle {
        if (refusals.isEmpty()) {
            throw new IllegalArgumentException("a generator needs at least one way to say it does not know");
        }
        refusals = List.copyOf(refusals);
        contextBudget = contextBudget == null ? ContextBudget.NONE : contextBudget;
    }
}
