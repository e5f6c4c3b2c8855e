package io.raglog.schemas;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How often one stage of one pipeline was flagged in one event-time window ({@code schemas/fault-rate.v4.json}; v1 to
 * v3 records still read), or, for the series {@code knowledge_gap}, how often a knowledge gap was decided; for
 * {@link #EMBEDDING_MISMATCH} (v4), how often a run's query embedding model was not its index's; for the series
 * {@link #USER_FEEDBACK_NEGATIVE} (v4), how much of the pipeline's user feedback was negative: then runsSeen and
 * runsChecked count the feedback records given in the window, and runsFlagged the negative ones.
 *
 * @param stage a stage id ({@link Stage#id()}), {@link Verdict#KNOWLEDGE_GAP}, {@link #EMBEDDING_MISMATCH} or
 *     {@link #USER_FEEDBACK_NEGATIVE}
 * @param runsSeen runs of the pipeline in the window that had this stage, sampled or not
 * @param runsChecked of those, the runs that were sampled and scored
 * @param runsFlagged of those, the runs whose verdict flagged this stage
 * @param rate runsFlagged / runsChecked; null when nothing was checked
 */
public record FaultRate(String schema, String pipeline, String stage, Instant windowStart, Instant windowEnd,
        long runsSeen, long runsChecked, long runsFlagged, Double rate) {

    public static final String SCHEMA_V1 = "raglog.fault-rate/v1";
    /** v2 adds the {@code knowledge_gap} series. */
    public static final String SCHEMA_V2 = "raglog.fault-rate/v2";
    /** v3 adds the stage {@code assemble}. */
    public static final String SCHEMA_V3 = "raglog.fault-rate/v3";
    /**
     * v4 adds the series {@link #EMBEDDING_MISMATCH} and {@link #USER_FEEDBACK_NEGATIVE}; only those are written as
     * v4, so the stage and knowledge-gap series a v3 reader knows stay v3.
     */
    public static final String SCHEMA_V4 = "raglog.fault-rate/v4";
    /**
     * The series of runs whose query embedding model was not their index's. Every complete run with an embed stage is
     * checked, sampled or not: the drift operator sees them all, before sampling.
     */
    public static final String EMBEDDING_MISMATCH = "embedding_mismatch";
    /** The series of negative user feedback beside the stages' fault rates. */
    public static final String USER_FEEDBACK_NEGATIVE = "user_feedback_negative";

    /** The schema a series is written with: v4 for the series v4 added, v3 for those a v3 reader knows. */
    public static String schemaOf(String series) {
        return EMBEDDING_MISMATCH.equals(series) || USER_FEEDBACK_NEGATIVE.equals(series) ? SCHEMA_V4 : SCHEMA_V3;
    }

    /** A stage's series. */
    public FaultRate(String schema, String pipeline, Stage stage, Instant windowStart, Instant windowEnd,
            long runsSeen, long runsChecked, long runsFlagged, Double rate) {
        this(schema, pipeline, stage.id(), windowStart, windowEnd, runsSeen, runsChecked, runsFlagged, rate);
    }

    /**
     * The latest record of each pipeline, stage and window, in the order read: a window is written again, complete,
     * when verdicts reach it after it first closed, and its latest record is the one that counts (as the
     * Elasticsearch document with its {@link #documentId()} is).
     */
    public static List<FaultRate> latestPerWindow(List<FaultRate> read) {
        Map<String, FaultRate> latest = new LinkedHashMap<>();
        for (FaultRate r : read) {
            latest.remove(r.documentId());
            latest.put(r.documentId(), r);
        }
        return List.copyOf(latest.values());
    }

    /** The Elasticsearch document id: one document per pipeline, stage and window, so a replay overwrites it. */
    public String documentId() {
        return pipeline + "|" + stage + "|" + windowStart.toEpochMilli();
    }
}
