package io.raglog.drift;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the drift operator keeps per pipeline, written to Flink state as one JSON value. Bounded: at most
 * {@link EmbeddingDriftTracker#MAX_INDEXES} indexes (the least recently built is dropped), one query model with a
 * baseline of at most {@link EmbeddingDriftTracker#WINDOW} scores and a ring of the last as many, one candidate model;
 * about 2 KB per pipeline whatever the traffic.
 */
public final class DriftState {

    /** Indexes seen on index-building calls, by name (the pipeline's name when the calls name none). */
    public Map<String, IndexSide> indexes = new LinkedHashMap<>();
    /** The pipeline's established query model, null before its first run with an embed stage. */
    public QuerySide query;
    /** A different model the latest runs used, not yet confirmed as a change. */
    public QuerySide candidate;
    /**
     * The index's model inferred from the pipeline's own queries (no index-building call seen): the model queries used
     * before a change after which retrieval scores collapsed, or whose dimension the store holds.
     */
    public String inferredIndexModel;
    public Integer inferredIndexDimensions;
    /** A change whose scores are still being watched for a collapse: the model before it, and its score summary. */
    public QuerySide watchedBefore;

    /** One index, as its building calls showed it. */
    public static final class IndexSide {
        public String model;
        public Integer dimensions;
        public long calls;
        public long lastSeenMillis;
        /** The last index/query model pair reported as a mismatch, so each pair is reported once. */
        public String reported;
    }

    /** One query model and how its runs' top retrieval scores looked. */
    public static final class QuerySide {
        public String model;
        public Integer dimensions;
        public long runs;
        /** Welford over the first {@link EmbeddingDriftTracker#WINDOW} scored runs: the baseline. */
        public long n;
        public double mean;
        public double m2;
        /** The last {@link EmbeddingDriftTracker#WINDOW} scores after the baseline filled. */
        public List<Double> recent = new ArrayList<>();

        public QuerySide() {}

        QuerySide(String model, Integer dimensions) {
            this.model = model;
            this.dimensions = dimensions;
        }

        void addBaseline(double score) {
            n++;
            double d = score - mean;
            mean += d / n;
            m2 += d * (score - mean);
        }

        double sd() {
            return n > 1 ? Math.sqrt(m2 / (n - 1)) : 0;
        }
    }
}
