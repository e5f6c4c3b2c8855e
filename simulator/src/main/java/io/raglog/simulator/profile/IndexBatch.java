package io.raglog.simulator.profile;

import io.raglog.simulator.corpus.Chunk;
import io.raglog.simulator.corpus.ChunkIndex;
import io.raglog.simulator.wire.Stores;
import io.raglog.simulator.wire.Tokens;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * One index-building batch, read once from its chunks: the texts a pipeline sends to its embedding API, the vectors
 * that come back, their token count, and the points it upserts into its store. Each profile renders these in its own
 * vendors' wire shapes.
 */
record IndexBatch(List<String> texts, List<float[]> vectors, List<Stores.Point> points, int tokens) {

    /** @param pointId the store's id for a chunk (Qdrant wants a UUID, other stores take the chunk id) */
    static IndexBatch of(List<Chunk> batch, ChunkIndex index, Function<Chunk, String> pointId) {
        List<String> texts = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        List<Stores.Point> points = new ArrayList<>();
        int tokens = 0;
        for (Chunk c : batch) {
            texts.add(c.text());
            vectors.add(index.vector(c));
            tokens += Tokens.count(c.text());
            points.add(new Stores.Point(pointId.apply(c), c.chunkId(), c.docId(), c.title(), c.text(),
                    index.vector(c)));
        }
        return new IndexBatch(texts, vectors, points, tokens);
    }
}
