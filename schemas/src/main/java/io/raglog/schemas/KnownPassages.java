package io.raglog.schemas;

import java.util.List;

/**
 * A second opinion on retrieval, from the pipeline's knowledge base as raglog has seen it: the passages other runs
 * of the same pipeline were handed (every passage a retrieval, a reranker or a prompt carried). Whether the knowledge
 * base holds an answer is in no single run's log; what it is known to hold, and how well that matches this run's
 * question next to what retrieval returned, is what tells a missed retrieval from a question the knowledge base
 * cannot answer.
 *
 * @param held how many passages of this pipeline raglog had seen before this run
 * @param returnedMatch how well the best passage the run was handed matches its question (the share of the
 *     question's words it holds, each weighted by how rare the word is in the known passages; 0-1)
 * @param unreturned the known passages this run was not handed that match its question best, best first; each
 *     passage's {@code score} is its match, on the same scale as {@code returnedMatch}
 */
public record KnownPassages(int held, double returnedMatch, List<Passage> unreturned) {

    public KnownPassages {
        unreturned = unreturned == null ? List.of() : List.copyOf(unreturned);
    }

    /** The best unreturned passage's match minus the best returned one's (an unreturned passage matching nothing: 0). */
    public double matchGain() {
        double best = unreturned.isEmpty() || unreturned.get(0).score() == null ? 0.0 : unreturned.get(0).score();
        return best - returnedMatch;
    }
}
