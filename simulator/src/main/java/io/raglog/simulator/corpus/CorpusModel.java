package io.raglog.simulator.corpus;

import io.raglog.simulator.pipeline.Vocabulary;
import io.raglog.simulator.text.HashedEmbedder;
import io.raglog.simulator.text.TermStats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Everything derived from a corpus alone: its term statistics, the embedding model, the vocabulary faults draw from,
 * and the vector index of each chunking. Immutable once built and expensive to build (seconds on the SQuAD file), so
 * it is kept per corpus file for the life of the JVM: tests and benchmarks that simulate many times pay once.
 */
public final class CorpusModel {

    /** Overlap the pipelines' sentence splitters allow between neighbouring chunks. */
    private static final int CHUNK_OVERLAP = 200;
    private static final int CACHED_CORPORA = 2;
    private static final Map<String, CorpusModel> CACHE = new LinkedHashMap<>(4, 0.75f, true);

    private final Corpus corpus;
    private final TermStats stats;
    private final HashedEmbedder embedder;
    private final Vocabulary vocabulary;
    private final Map<Integer, ChunkIndex> indexes = new HashMap<>();

    private CorpusModel(Corpus corpus) {
        this.corpus = corpus;
        List<String> texts = new ArrayList<>();
        for (Document d : corpus.documents()) {
            texts.add(d.text());
        }
        this.stats = new TermStats(texts);
        this.embedder = new HashedEmbedder(stats, HashedEmbedder.DEFAULT_DIMENSIONS);
        this.vocabulary = new Vocabulary(corpus);
    }

    /** The model of the corpus at {@code path}, built once per file version. */
    public static CorpusModel of(Path path) {
        return cached(cacheKey(path), () -> CorpusLoader.load(path));
    }

    /** The model of the corpus raglog ships, built once per JVM. */
    public static CorpusModel shipped() {
        return cached("classpath:" + CorpusLoader.SHIPPED_SQUAD, CorpusLoader::loadShipped);
    }

    private static CorpusModel cached(String key, Supplier<Corpus> load) {
        synchronized (CACHE) {
            CorpusModel cached = CACHE.get(key);
            if (cached != null) {
                return cached;
            }
        }
        CorpusModel built = new CorpusModel(load.get());
        synchronized (CACHE) {
            CACHE.putIfAbsent(key, built);
            while (CACHE.size() > CACHED_CORPORA) {
                CACHE.remove(CACHE.keySet().iterator().next());
            }
            return CACHE.get(key);
        }
    }

    private static String cacheKey(Path path) {
        try {
            Path real = path.toRealPath();
            Path stamp = Files.isDirectory(real) ? real.resolve(CorpusLoader.QUESTIONS_FILE) : real;
            long modified = Files.exists(stamp) ? Files.getLastModifiedTime(stamp).toMillis() : 0;
            return real + "@" + modified;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read corpus " + path, e);
        }
    }

    public Corpus corpus() {
        return corpus;
    }

    public TermStats stats() {
        return stats;
    }

    public Vocabulary vocabulary() {
        return vocabulary;
    }

    /** The corpus chunked with this budget and embedded: built on first use, then shared. */
    public synchronized ChunkIndex index(int chunkSize) {
        return indexes.computeIfAbsent(chunkSize,
                size -> new ChunkIndex(corpus, new Chunker(size, CHUNK_OVERLAP), embedder));
    }
}
