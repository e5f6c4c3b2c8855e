package io.raglog.schemas;

/**
 * A run whose query embedding does not match the index it searched: the index's vectors came from one model (or had
 * one dimension) and the question's from another, so the store's similarity scores mean nothing and no call failed.
 * Set on the run by the job's embedding-drift operator before sampling; scoring flags the run's embed stage with it.
 *
 * @param index the index the run searched: the collection, namespace or index name where the calls show it, else the
 *     pipeline
 * @param indexModel the model the index was built with (seen on index-building calls, or inferred), null if unknown
 * @param indexDimensions the index's vector dimension, null if unknown
 * @param queryModel the model the run's question was embedded with
 * @param queryDimensions the run's query vector dimension, null if unknown
 * @param basis {@link #SEEN} when index-building calls showed the index's model, {@link #INFERRED} when it was
 *     inferred from the pipeline's own queries (a dimension change, or retrieval scores that collapsed for one model)
 * @param text one sentence a person can act on
 */
public record EmbeddingMismatch(String index, String indexModel, Integer indexDimensions, String queryModel,
        Integer queryDimensions, String basis, String text) {

    public static final String SEEN = "index_calls";
    public static final String INFERRED = "inferred";

    /** What to try first: re-embed the index with the query's model, or query with the index's. */
    public String repairHint() {
        String q = queryModel == null ? "the query model" : queryModel;
        String i = indexModel == null ? "the model the index was built with" : indexModel;
        return "Re-embed the index" + (index == null ? "" : " '" + index + "'") + " with " + q + ", or query with "
                + i + ": vectors of two embedding models are not comparable, even at the same dimension.";
    }
}
