package io.raglog.calls;

/** What a chat call does in a RAG pipeline; {@link ChatRoleRules} reads it from the prompt and the reply. */
public enum ChatRole {
    /** Rewrites, expands or decomposes the user's question into search queries. */
    REWRITE,
    /** Answers the question from context passages: the call that closes a run. */
    GENERATE,
    /**
     * A pipeline's own relevance gate that judged the context insufficient ({@link RelevanceGates}): the pipeline
     * stopped there, so the call stands in the generator's place and closes the run, whose answer is "none".
     */
    GATE,
    /** A chat model asked to rank documents by relevance ({@link LlmRerankers}): read as the rerank stage. */
    RERANK,
    /** A chat call that is neither (a guardrail, a router, a title generator): not a stage. */
    OTHER
}
