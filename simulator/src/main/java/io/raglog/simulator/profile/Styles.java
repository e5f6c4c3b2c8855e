package io.raglog.simulator.profile;

import io.raglog.simulator.pipeline.AnswerStyle;
import io.raglog.simulator.pipeline.ContextBudget;
import io.raglog.simulator.pipeline.Mix;
import io.raglog.simulator.pipeline.PipelineStyle;
import io.raglog.simulator.pipeline.RewriteStyle;
import java.util.List;

/**
 * How each shipped pipeline's models phrase things: its rewrite prompt's styles, its embedding family's prefix, its
 * generator's habits and refusals. Each pipeline has a few, as one prompt gives varied outputs; the mixes differ, so
 * no style marks a pipeline.
 */
final class Styles {

    private Styles() {}

    /** gpt-4o behind LangChain's stuff prompt ("just say that you don't know"). */
    static final List<String> OPENAI_REFUSALS = List.of("I don't know.",
            "I don't know the answer to that based on the given context.",
            "I'm sorry, but the provided context doesn't contain that information.",
            "The context doesn't say, so I don't know.");

    /** Claude behind LlamaIndex's QA template. */
    static final List<String> ANTHROPIC_REFUSALS = List.of(
            "The provided context does not contain the answer to this query.",
            "I don't have enough information in the given context to answer this question.",
            "The context information doesn't mention this.",
            "I cannot find the answer to this in the information provided.");

    /** A small open model told to say "I don't know based on the provided context." (it mostly does). */
    static final List<String> LLAMA_REFUSALS = List.of("I don't know based on the provided context.",
            "I don't know based on the provided context.", "I don't know.",
            "Sorry, I couldn't find that in the context.", "The context doesn't provide this information.");

    /** The Responses API's gpt-4.1 with a context-only instruction. */
    static final List<String> RESPONSES_REFUSALS = List.of("I don't know based on the provided context.",
            "The provided context doesn't include that information.",
            "Unfortunately, the documents provided do not answer this.",
            "There is no information about this in the provided context.");

    static final PipelineStyle OPENAI_QDRANT_COHERE = new PipelineStyle(
            Mix.of(RewriteStyle.KEYWORDS, 0.45, RewriteStyle.PARAPHRASE, 0.35, RewriteStyle.EXPANSION, 0.15,
                    RewriteStyle.HYDE, 0.05),
            PipelineStyle.NONE, null,
            Mix.of(AnswerStyle.PLAIN, 0.4, AnswerStyle.PARAPHRASED, 0.2, AnswerStyle.VERBOSE, 0.15,
                    AnswerStyle.HEDGED, 0.1, AnswerStyle.CITED, 0.1, AnswerStyle.LIST, 0.05),
            OPENAI_REFUSALS, 0.01)
            .withContextBudget(new ContextBudget(300, true, ContextBudget.Order.AS_HANDED));

    /** TEI serves a BGE model here, so queries carry BGE's retrieval instruction. */
    static final PipelineStyle TEI_PINECONE_ANTHROPIC = new PipelineStyle(
            Mix.of(RewriteStyle.KEYWORDS, 1.0), PipelineStyle.BGE, null,
            Mix.of(AnswerStyle.PLAIN, 0.25, AnswerStyle.PARAPHRASED, 0.2, AnswerStyle.VERBOSE, 0.25,
                    AnswerStyle.HEDGED, 0.15, AnswerStyle.CITED, 0.05, AnswerStyle.LIST, 0.1),
            ANTHROPIC_REFUSALS, 0.01)
            .withContextBudget(new ContextBudget(950, false, ContextBudget.Order.AS_HANDED));

    /**
     * Ollama's nomic-embed-text wants {@code search_query: }; the service's sentence-transformers-style client caps
     * what it embeds at 48 word pieces, which a long hypothetical answer overruns. Its prompt builder puts the
     * passages back in the documents' order before it fills the budget, so the budget runs out on whatever comes
     * last in the documents.
     */
    static final PipelineStyle OLLAMA_JINA_VLLM = new PipelineStyle(
            Mix.of(RewriteStyle.KEYWORDS, 0.35, RewriteStyle.PARAPHRASE, 0.2, RewriteStyle.EXPANSION, 0.15,
                    RewriteStyle.HYDE, 0.3),
            PipelineStyle.NOMIC, 48,
            Mix.of(AnswerStyle.PLAIN, 0.45, AnswerStyle.PARAPHRASED, 0.15, AnswerStyle.VERBOSE, 0.15,
                    AnswerStyle.HEDGED, 0.15, AnswerStyle.LIST, 0.1),
            LLAMA_REFUSALS, 0.02)
            .withContextBudget(new ContextBudget(320, true, ContextBudget.Order.AS_HANDED,
                    ContextBudget.Fill.DOCUMENT_ORDER));

    static final PipelineStyle ELASTIC_VOYAGE_RESPONSES = new PipelineStyle(
            Mix.of(RewriteStyle.KEYWORDS, 0.3, RewriteStyle.PARAPHRASE, 0.3, RewriteStyle.EXPANSION, 0.3,
                    RewriteStyle.HYDE, 0.1),
            PipelineStyle.NONE, null,
            Mix.of(AnswerStyle.PLAIN, 0.3, AnswerStyle.PARAPHRASED, 0.2, AnswerStyle.VERBOSE, 0.1,
                    AnswerStyle.HEDGED, 0.1, AnswerStyle.CITED, 0.25, AnswerStyle.LIST, 0.05),
            RESPONSES_REFUSALS, 0.01)
            .withContextBudget(new ContextBudget(null, true, ContextBudget.Order.ENDS_FIRST));

    /** LangChain's defaults: a fluent multi-query-style rewrite more often than keywords, gpt-4o-mini answers. */
    static final PipelineStyle LANGCHAIN_MEMORY = new PipelineStyle(
            Mix.of(RewriteStyle.KEYWORDS, 0.3, RewriteStyle.PARAPHRASE, 0.4, RewriteStyle.EXPANSION, 0.2,
                    RewriteStyle.HYDE, 0.1),
            PipelineStyle.NONE, null,
            Mix.of(AnswerStyle.PLAIN, 0.35, AnswerStyle.PARAPHRASED, 0.2, AnswerStyle.VERBOSE, 0.2,
                    AnswerStyle.HEDGED, 0.1, AnswerStyle.CITED, 0.05, AnswerStyle.LIST, 0.1),
            OPENAI_REFUSALS, 0.015)
            .withContextBudget(new ContextBudget(290, true, ContextBudget.Order.BEST_LAST));

    /**
     * LlamaIndex with OpenAI: its condense step writes fluent questions more than keywords; a node postprocessor
     * restores the documents' order before the prompt is packed, so whole nodes past the budget are dropped in that
     * order.
     */
    static final PipelineStyle OTEL_LLAMAINDEX = new PipelineStyle(
            Mix.of(RewriteStyle.KEYWORDS, 0.25, RewriteStyle.PARAPHRASE, 0.5, RewriteStyle.EXPANSION, 0.1,
                    RewriteStyle.HYDE, 0.15),
            PipelineStyle.NONE, null,
            Mix.of(AnswerStyle.PLAIN, 0.35, AnswerStyle.PARAPHRASED, 0.25, AnswerStyle.VERBOSE, 0.2,
                    AnswerStyle.HEDGED, 0.1, AnswerStyle.LIST, 0.1),
            OPENAI_REFUSALS, 0.01)
            .withContextBudget(new ContextBudget(520, false, ContextBudget.Order.AS_HANDED,
                    ContextBudget.Fill.DOCUMENT_ORDER));
}
