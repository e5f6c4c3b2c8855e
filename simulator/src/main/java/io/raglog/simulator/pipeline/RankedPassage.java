package io.raglog.simulator.pipeline;

import io.raglog.simulator.corpus.Chunk;

/**
 * A passage in the reranker's output.
 *
 * @param inputIndex its position in the reranker's input (what rerank APIs return as {@code index})
 * @param score the relevance score in (0, 1), as hosted rerankers report it
 */
public record RankedPassage(Chunk chunk, int inputIndex, double score) {}
