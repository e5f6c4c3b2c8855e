package io.raglog.simulator.pipeline;

import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.corpus.ChunkIndex;
import io.raglog.simulator.text.Bm25;
import io.raglog.simulator.text.WordPieces;
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
        return rerank(query, input, NOISE, rng);
    }

    private List<RankedPassage> rerank(String query, List<ChunkIndex.Hit> input, double noise, SplittableRandom rng) {
        List<String> texts = new ArrayList<>();
        for (ChunkIndex.Hit hit : input) {
            texts.add(hit.chunk().text());
        }
        return rerank(query, input, texts, noise, rng);
    }

    /** {@code input}'s passages scored on {@code texts} (what the model reads of each), best first. */
    private List<RankedPassage> rerank(String query, List<ChunkIndex.Hit> input, List<String> texts, double noise,
            SplittableRandom rng) {
        double[] raw = bm25.scores(query, texts);
        double max = 0;
        for (double r : raw) {
            max = Math.max(max, r);
        }
        List<RankedPassage> out = new ArrayList<>();
        for (int i = 0; i < raw.length; i++) {
            double noisy = raw[i] + noise * Math.max(max, 1) * Rand.gaussian(rng);
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

    /** Noise bursts a misbehaving reranker shows: a cold replica, a quantised model, the wrong model version. */
    static final double[] NOISE_BURSTS = {1.5, 2.5, 4.0};
    private static final int BURST_ATTEMPTS = 6;
    /**
     * The windows, in word pieces, of a replica that serves the reranker with a short {@code max_length} (a fallback
     * deployment, a default the serving framework chose): each passage is scored on its opening words alone.
     */
    static final int[] SHORT_WINDOWS = {24, 40, 64};
    /** The share of planted reranker faults that are a short-window replica; the others are noise bursts. */
    static final double SHORT_WINDOW_SHARE = 0.3;

    /**
     * A reranker gone wrong on this batch: its scores drowned in noise (several burst sizes), or scored by a replica
     * that reads only each passage's opening words, so an answer further in counts for nothing. Both are what a
     * request meets on a bad replica, not a pipeline's constant habit (which every run, sound ones too, would show).
     * Labeled only for what it did: null when the evidence was not kept to begin with, or when the disorder still
     * kept it (then there is no fault to speak of).
     */
    public Injection<List<RankedPassage>> disorder(String query, List<ChunkIndex.Hit> input,
            List<RankedPassage> sound, Set<Chunk> evidence, int topN, SplittableRandom rng) {
        if (!keeps(sound, evidence, topN)) {
            return null;
        }
        if (rng.nextDouble() < SHORT_WINDOW_SHARE) {
            int window = SHORT_WINDOWS[rng.nextInt(SHORT_WINDOWS.length)];
            List<RankedPassage> shortSighted = rerank(query, input, openings(input, window), NOISE, rng);
            if (!keeps(shortSighted, evidence, topN)) {
                return new Injection<>(shortSighted, new Fault(FaultType.RERANK_EVIDENCE_BELOW_CUTOFF,
                        "a reranker replica that reads only the first " + window + " word pieces of each passage"
                                + " cut the evidence (" + ids(sound, evidence) + ") below its top " + topN));
            }
        }
        double burst = NOISE_BURSTS[rng.nextInt(NOISE_BURSTS.length)];
        for (int attempt = 0; attempt < BURST_ATTEMPTS; attempt++) {
            List<RankedPassage> noisy = rerank(query, input, NOISE * burst, rng);
            if (!keeps(noisy, evidence, topN)) {
                return new Injection<>(noisy, new Fault(FaultType.RERANK_EVIDENCE_BELOW_CUTOFF, String.format(
                        java.util.Locale.ROOT, "the reranker's scores went noisy (%.1fx its usual spread) and cut the"
                                + " evidence (%s) below its top %d", burst, ids(sound, evidence), topN)));
            }
        }
        return null;
    }

    /** What a short-window replica reads of each passage: its first {@code window} word pieces. */
    private static List<String> openings(List<ChunkIndex.Hit> input, int window) {
        List<String> out = new ArrayList<>();
        for (ChunkIndex.Hit hit : input) {
            out.add(WordPieces.cut(hit.chunk().text(), window));
        }
        return out;
    }

    private static boolean keeps(List<RankedPassage> ranked, Set<Chunk> evidence, int topN) {
        for (int i = 0; i < Math.min(topN, ranked.size()); i++) {
            if (evidence.contains(ranked.get(i).chunk())) {
                return true;
            }
        }
        return false;
    }

    private static String ids(List<RankedPassage> ranked, Set<Chunk> evidence) {
        return ranked.stream().filter(p -> evidence.contains(p.chunk())).map(p -> p.chunk().chunkId())
                .reduce((a, b) -> a + ", " + b).orElse("");
    }
}
