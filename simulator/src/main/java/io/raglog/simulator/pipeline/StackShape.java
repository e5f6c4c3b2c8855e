package io.raglog.simulator.pipeline;

/**
 * What a pipeline does, independent of the vendors it calls.
 *
 * @param rewrites whether an LLM rewrites the question into a search query first
 * @param topK passages the vector store returns
 * @param topN passages the reranker keeps; null when the pipeline has no reranker (then all topK go to the prompt)
 * @param chunkSize the chunker's character budget; pipelines chunk differently, so evidence differs per pipeline
 * @param skill how the generator model behaves
 */
public record StackShape(boolean rewrites, int topK, Integer topN, int chunkSize, GeneratorSkill skill) {

    public StackShape {
        if (topN != null && topN >= topK) {
            throw new IllegalArgumentException("reranker keeps " + topN + " of " + topK + ": nothing would be cut");
        }
    }

    public boolean reranks() {
        return topN != null;
    }
}
