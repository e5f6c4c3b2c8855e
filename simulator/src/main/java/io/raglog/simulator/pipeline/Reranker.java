package io.raglog.simulator.pipeline;

import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.corpus.ChunkIndex;
import io.raglog.simulator.text.Bm25;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The reranker: really re-scores the retrieved passages against the query (BM25 with word-pair bonus, blurred by the
 * model's own noise), so it sometimes disagrees with the embedder and now and then cuts the evidence on its own.
 */
public final class Reranker {

    /** Spread of the model's misjudgement, as a share of the best raw score of the batch. */
    static final double NOISE = 0.45;
    /** Raw score mapped to 0.5 relevance, and how steeply: hosted rerankers give ~0.9 to a clear hit, ~0.01 to noise. */
    private static final double CENTER = 7.0;
    private static final double SCALE = 1.8;

    private final Bm25 bm25;

    public Reranker(Bm25 bm25) {
        this.bm25 = bm25;
    }

    /** Every input passage, best first (ties keep input order). */
    public List<RankedPassage> rerank(String query, List<ChunkIndex.Hit> input, SplittableRandom rng) {
        List<String> texts = new ArrayList<>();
        for (ChunkIndex.Hit hit : input) {
            texts.add(hit.chunk().text());
        }
        double[] raw = bm25.scores(query, texts);
        double max = 0;
        for (double r : raw) {
            max = Math.max(max, r);
        }
        List<RankedPassage> out = new ArrayList<>();
        for (int i = 0; i < raw.length; i++) {
            double noisy = raw[i] + NOISE * Math.max(max, 1) * Rand.gaussian(rng);
            out.add(new RankedPassage(input.get(i).chunk(), i, round(relevance(noisy))));
        }
        out.sort(Comparator.comparingDouble((RankedPassage p) -> -p.score()).thenComparingInt(RankedPassage::inputIndex));
        return out;
    }

    private static double relevance(double raw) {
        return 1 / (1 + Math.exp(-(raw - CENTER) / SCALE));
    }

    /** Hosted rerankers report scores to a handful of digits; fewer digits also keep the logs readable. */
    private static double round(double score) {
        return Math.max(1e-6, Math.round(score * 1e6) / 1e6);
    }

    /**
     * Moves the evidence just below the cut-off: everything else keeps its order, the evidence passages take the
     * places right after the {@code topN} kept ones, with scores between their neighbours'. Null when the evidence
     * was not among the kept passages (then there is nothing to push down).
     */
    public Injection<List<RankedPassage>> pushBelowCutoff(List<RankedPassage> ranked, Set<Chunk> evidence, int topN) {
        List<RankedPassage> kept = new ArrayList<>();
        List<RankedPassage> moved = new ArrayList<>();
        boolean evidenceKept = false;
        for (int i = 0; i < ranked.size(); i++) {
            RankedPassage p = ranked.get(i);
            if (evidence.contains(p.chunk())) {
                moved.add(p);
                evidenceKept |= i < topN;
            } else {
                kept.add(p);
            }
        }
        if (!evidenceKept || kept.size() < topN) {
            return null;
        }
        double above = kept.get(topN - 1).score();
        double below = topN < kept.size() ? kept.get(topN).score() : above / 2;
        List<RankedPassage> out = new ArrayList<>(kept.subList(0, topN));
        for (int i = 0; i < moved.size(); i++) {
            double score = round(above - (above - below) * (i + 1) / (moved.size() + 1.0));
            out.add(new RankedPassage(moved.get(i).chunk(), moved.get(i).inputIndex(), Math.min(score, above)));
        }
        out.addAll(kept.subList(topN, kept.size()));
        String ids = moved.stream().map(p -> p.chunk().chunkId()).reduce((a, b) -> a + ", " + b).orElse("");
        return new Injection<>(out, new Fault(FaultType.RERANK_EVIDENCE_BELOW_CUTOFF,
                "the reranker placed the evidence (" + ids + ") just below its top " + topN + " cut-off"));
    }
}
