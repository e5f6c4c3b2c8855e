package io.raglog.schemas;

import java.time.Instant;

/**
 * One embedding drift event of one pipeline's index ({@code schemas/drift.v1.json}, topic {@code raglog.drift}):
 * the query model changed, the retrieval score distribution shifted, or queries stopped matching the index's model,
 * with the evidence before and after.
 *
 * @param kind {@link #MODEL_CHANGED}, {@link #SCORES_SHIFTED} or {@link #INDEX_MISMATCH}
 * @param index the collection, namespace or index name where the calls show it, else the pipeline
 * @param runId the run that confirmed the event
 * @param detectedAt the event time of that run's end
 * @param before what the pipeline looked like before (the established query model, or the index's)
 * @param after what it looks like now
 * @param text one sentence on what happened
 * @param repairHint what to try first
 */
public record EmbeddingDrift(String schema, String pipeline, String index, String kind, String runId,
        Instant detectedAt, Side before, Side after, String text, String repairHint) {

    public static final String SCHEMA_V1 = "raglog.drift/v1";
    public static final String MODEL_CHANGED = "query_model_changed";
    public static final String SCORES_SHIFTED = "retrieval_scores_shifted";
    public static final String INDEX_MISMATCH = "index_query_mismatch";

    /** Elasticsearch document id: one document per pipeline, index, kind and confirming run, so replays overwrite. */
    public String documentId() {
        return pipeline + "|" + index + "|" + kind + "|" + runId;
    }

    /**
     * One side of the evidence.
     *
     * @param model the embedding model, null when unknown
     * @param dimensions the vector dimension, null when unknown
     * @param runs how many runs (or index-building calls) this side summarises
     * @param scoreMean mean top retrieval score over those runs, null when the runs carried no scores
     * @param scoreSd its standard deviation, null likewise
     */
    public record Side(String model, Integer dimensions, long runs, Double scoreMean, Double scoreSd) {}
}
