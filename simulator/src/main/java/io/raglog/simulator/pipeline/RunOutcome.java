package io.raglog.simulator.pipeline;

import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.corpus.ChunkIndex;
import io.raglog.simulator.corpus.Question;
import java.util.List;

/**
 * Everything one simulated run did, stage by stage: what a profile renders into vendor calls, and what the label is
 * computed from.
 *
 * @param rewrite the rewriter's output, null when the pipeline does not rewrite
 * @param query the text the pipeline searches and reranks with (the rewrite, else the question)
 * @param embedText the text sent for embedding (the query, unless an embed fault changed it)
 * @param queryVector the vector the embedder returned for {@code embedText}, and the one sent to the store
 * @param retrieved the store's results in its order
 * @param reranked every retrieved passage in the reranker's order, null when the pipeline has no reranker
 * @param context the passages in the generator's prompt, in prompt order
 * @param evidence the chunks holding the reference answer under this pipeline's chunking
 * @param injected the injected fault, null when none was injected (or the planned one found nothing to break)
 * @param stoppedByGate the pipeline's relevance gate stopped the run: no generator call, and {@code answer} is the
 *     gate's reply
 */
public record RunOutcome(
        Question question,
        String title,
        String rewrite,
        String query,
        String embedText,
        float[] queryVector,
        List<ChunkIndex.Hit> retrieved,
        List<RankedPassage> reranked,
        Integer topN,
        List<Chunk> context,
        Answer answer,
        List<Chunk> evidence,
        Fault injected,
        boolean injectionSkipped,
        Verdict verdict,
        boolean stoppedByGate) {}
