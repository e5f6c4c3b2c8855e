package io.raglog.simulator.pipeline;

/**
 * How a pipeline's rewriter phrases its search query. Real rewriters differ by prompt: a keyword query, a fluent
 * restatement, a query expanded with synonyms and related terms, or a hypothetical answer to embed (HyDE). A sound
 * rewrite of any style keeps the question's names, numbers and dates; only the words around them vary.
 */
public enum RewriteStyle { KEYWORDS, PARAPHRASE, EXPANSION, HYDE }
