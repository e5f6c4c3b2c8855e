package io.raglog.knowledge;

import io.raglog.drift.IndexEmbedding;

/**
 * What raglog keeps of one index-building embedding call: its model and dimension, for the embedding-drift check,
 * and the documents it embedded, for the known passages. One record for both, so that the one operator that reads
 * index-building calls (the known passages) can hand the drift check its part in line with the runs, and the two
 * per-pipeline operators run in one task.
 *
 * @param embedding the model and dimension, null when the call showed neither
 * @param documents the texts embedded, null when the call carried none (token ids, a failed call)
 */
public record IndexBuildingCall(String pipeline, IndexEmbedding embedding, IndexedPassages documents) {

    /** What the call showed; null when it showed nothing either operator uses. */
    public static IndexBuildingCall of(IndexEmbedding embedding, IndexedPassages documents) {
        if (embedding == null && documents == null) {
            return null;
        }
        return new IndexBuildingCall(embedding != null ? embedding.pipeline() : documents.pipeline(), embedding,
                documents);
    }
}
