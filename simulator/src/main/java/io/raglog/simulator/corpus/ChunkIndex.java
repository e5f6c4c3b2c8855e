package io.raglog.simulator.corpus;

import io.raglog.simulator.text.AnswerMatch;
import io.raglog.simulator.text.HashedEmbedder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A corpus chunked one way, with every chunk's vector: the vector store of the simulated pipelines, and the gold
 * evidence of each question under this chunking (the chunks that hold the reference answer).
 */
public final class ChunkIndex {

    /** A search hit: the chunk and its cosine similarity to the query vector. */
    public record Hit(Chunk chunk, double score) {}

    private final List<Chunk> chunks;
    private final Map<String, List<Chunk>> byDoc = new LinkedHashMap<>();
    private final float[][] vectors;
    private final HashedEmbedder embedder;
    private final Corpus corpus;

    public ChunkIndex(Corpus corpus, Chunker chunker, HashedEmbedder embedder) {
        this.corpus = corpus;
        this.embedder = embedder;
        this.chunks = chunker.chunk(corpus.documents());
        this.vectors = new float[chunks.size()][];
        for (Chunk c : chunks) {
            vectors[c.index()] = embedder.embed(c.text());
            byDoc.computeIfAbsent(c.docId(), k -> new ArrayList<>()).add(c);
        }
    }

    public List<Chunk> chunks() {
        return chunks;
    }

    public float[] vector(Chunk chunk) {
        return vectors[chunk.index()];
    }

    public HashedEmbedder embedder() {
        return embedder;
    }

    public List<Chunk> chunksOf(String docId) {
        return byDoc.getOrDefault(docId, List.of());
    }

    /** Exact nearest neighbours by cosine (vectors are unit length), best first, ties by chunk order. */
    public List<Hit> search(float[] query, int k) {
        int size = Math.min(k, chunks.size());
        int[] best = new int[size];
        double[] bestScores = new double[size];
        int filled = 0;
        for (int i = 0; i < vectors.length; i++) {
            double score = HashedEmbedder.cosine(query, vectors[i]);
            if (filled == size && score <= bestScores[size - 1]) {
                continue;
            }
            int pos = filled < size ? filled++ : size - 1;
            // Insertion keeps the kept list sorted; strict comparison keeps earlier chunks first on ties.
            while (pos > 0 && bestScores[pos - 1] < score) {
                best[pos] = best[pos - 1];
                bestScores[pos] = bestScores[pos - 1];
                pos--;
            }
            best[pos] = i;
            bestScores[pos] = score;
        }
        List<Hit> out = new ArrayList<>(filled);
        for (int i = 0; i < filled; i++) {
            out.add(new Hit(chunks.get(best[i]), bestScores[i]));
        }
        return out;
    }

    public double similarity(float[] query, Chunk chunk) {
        return HashedEmbedder.cosine(query, vectors[chunk.index()]);
    }

    /**
     * The chunks that hold the reference answer: those covering a gold answer offset when the corpus gives offsets,
     * else those of the relevant documents whose text contains an accepted answer. Empty for an unanswerable question.
     */
    public List<Chunk> evidence(Question q) {
        if (!q.answerable()) {
            return List.of();
        }
        List<Chunk> out = new ArrayList<>();
        if (!q.answerStarts().isEmpty()) {
            String docId = q.relevantDocIds().get(0);
            for (int i = 0; i < q.answerStarts().size(); i++) {
                int start = q.answerStarts().get(i);
                int end = start + q.acceptableAnswers().get(i).length();
                for (Chunk c : chunksOf(docId)) {
                    if (c.start() <= start && end <= c.end() && !out.contains(c)) {
                        out.add(c);
                    }
                }
            }
        }
        if (out.isEmpty()) {
            for (String docId : q.relevantDocIds()) {
                for (Chunk c : chunksOf(docId)) {
                    if (AnswerMatch.contains(c.text(), q.acceptableAnswers())
                            || containsIgnoreCase(c.text(), q.acceptableAnswers())) {
                        if (!out.contains(c)) {
                            out.add(c);
                        }
                    }
                }
            }
        }
        return out;
    }

    private static boolean containsIgnoreCase(String text, List<String> answers) {
        String t = text.toLowerCase(Locale.ROOT);
        return answers.stream().anyMatch(a -> t.contains(a.toLowerCase(Locale.ROOT)));
    }

    public Corpus corpus() {
        return corpus;
    }
}
