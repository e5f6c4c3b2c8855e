package io.raglog.drift;

import io.raglog.schemas.EmbedStage;
import io.raglog.schemas.EmbeddingDrift;
import io.raglog.schemas.EmbeddingMismatch;
import io.raglog.schemas.Passage;
import io.raglog.schemas.RetrieveStage;
import io.raglog.schemas.Run;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The embedding drift rules over one pipeline's {@link DriftState}; no Flink here, so the rules test as plain code.
 *
 * <ul>
 *   <li><b>Mismatch seen</b>: index-building calls showed the index's model (or dimension) and the run's query
 *       embedding names another: the run gets an {@link EmbeddingMismatch} ({@code basis: index_calls}), and the
 *       first such run of each index/query model pair raises an {@code index_query_mismatch} drift record.</li>
 *   <li><b>Query model change</b>: {@link #CONFIRM} consecutive runs with a model other than the established one
 *       confirm a change ({@code query_model_changed}, the old model's score summary before, the new one's after);
 *       runs that alternate between two models (an A/B test) never confirm one.</li>
 *   <li><b>Mismatch inferred</b> (no index-building call seen): after a confirmed change, the store still holds the
 *       old model's vectors when the new model's dimension differs from the old one's, or when the new model's mean
 *       top retrieval score over its first {@link #COLLAPSE_RUNS} scored runs falls below {@link #COLLAPSE_RATIO} of
 *       the old model's baseline (at least {@link #MIN_BASELINE} scored runs). Then the old model is taken as the
 *       index's, an {@code index_query_mismatch} record is raised, and later runs with another model are flagged
 *       ({@code basis: inferred}). Scores that hold up mean the index was re-embedded: nothing is inferred.</li>
 *   <li><b>Score shift</b>: the established model's baseline is the mean and spread of its first {@link #WINDOW}
 *       top scores; once the last {@link #WINDOW} scores' mean differs from it by at least {@link #SHIFT_RATIO} of
 *       the baseline mean and by {@link #SHIFT_Z} standard errors, a {@code retrieval_scores_shifted} record is
 *       raised and the recent scores become the baseline.</li>
 * </ul>
 *
 * <p>A run's index is the pipeline's most recently built index (indexes are named where the index-building calls
 * name them, else after the pipeline). Its top score is the best score the retrieval call returned (runs without
 * logged retrieval scores still count for models, not for scores).
 */
public final class EmbeddingDriftTracker {

    public static final int MAX_INDEXES = 16;
    public static final int WINDOW = 50;
    public static final int CONFIRM = 3;
    public static final int MIN_BASELINE = 20;
    public static final int COLLAPSE_RUNS = 10;
    public static final double COLLAPSE_RATIO = 0.6;
    public static final double SHIFT_RATIO = 0.25;
    public static final double SHIFT_Z = 4.0;

    private EmbeddingDriftTracker() {}

    /** What one run left: its mismatch (null when none) and the drift records it confirmed. */
    public record Outcome(EmbeddingMismatch mismatch, List<EmbeddingDrift> drift) {}

    /** Learns an index-building call's model and dimension. */
    public static void index(DriftState state, IndexEmbedding call) {
        String name = call.index() != null ? call.index() : call.pipeline();
        DriftState.IndexSide side = state.indexes.remove(name);
        if (side == null) {
            side = new DriftState.IndexSide();
        }
        if (call.model() != null) {
            side.model = call.model();
        }
        if (call.dimensions() != null) {
            side.dimensions = call.dimensions();
        }
        side.calls++;
        side.lastSeenMillis = call.at() == null ? side.lastSeenMillis : call.at().toEpochMilli();
        state.indexes.put(name, side); // re-inserted: the map's order is least recently built first
        while (state.indexes.size() > MAX_INDEXES) {
            state.indexes.remove(state.indexes.keySet().iterator().next());
        }
        // an index built with a known model replaces what was inferred
        state.inferredIndexModel = null;
        state.inferredIndexDimensions = null;
        state.watchedBefore = null;
    }

    /** Checks one complete run against its pipeline's state and updates the state. */
    public static Outcome run(DriftState state, Run run) {
        EmbedStage embed = run.stages() == null ? null : run.stages().embed();
        if (run.incomplete() || embed == null || !embed.present()
                || (embed.model() == null && embed.dimensions() == null)) {
            return new Outcome(null, List.of());
        }
        List<EmbeddingDrift> drift = new ArrayList<>();
        Double score = topScore(run.stages().retrieve());
        track(state, run, embed, score, drift);
        EmbeddingMismatch mismatch = seenMismatch(state, run, embed, drift);
        if (mismatch == null) {
            mismatch = inferredMismatch(state, run, embed);
        }
        return new Outcome(mismatch, drift);
    }

    private static EmbeddingMismatch seenMismatch(DriftState state, Run run, EmbedStage embed,
            List<EmbeddingDrift> drift) {
        if (state.indexes.isEmpty()) {
            return null;
        }
        Map.Entry<String, DriftState.IndexSide> latest = null;
        for (Map.Entry<String, DriftState.IndexSide> e : state.indexes.entrySet()) {
            latest = e;
        }
        DriftState.IndexSide index = latest.getValue();
        boolean modelDiffers = index.model != null && embed.model() != null && !sameModel(index.model, embed.model());
        boolean dimensionDiffers = index.dimensions != null && embed.dimensions() != null
                && !index.dimensions.equals(embed.dimensions());
        if (!modelDiffers && !dimensionDiffers) {
            return null;
        }
        EmbeddingMismatch m = new EmbeddingMismatch(latest.getKey(), index.model, index.dimensions, embed.model(),
                embed.dimensions(), EmbeddingMismatch.SEEN, describe(latest.getKey(), index.model, index.dimensions,
                        embed.model(), embed.dimensions(), "its index-building calls"));
        String pair = index.model + "|" + index.dimensions + "|" + embed.model() + "|" + embed.dimensions();
        if (!pair.equals(index.reported)) {
            index.reported = pair;
            drift.add(record(run, latest.getKey(), EmbeddingDrift.INDEX_MISMATCH,
                    new EmbeddingDrift.Side(index.model, index.dimensions, index.calls, null, null),
                    side(state.query), m.text(), m.repairHint()));
        }
        return m;
    }

    private static EmbeddingMismatch inferredMismatch(DriftState state, Run run, EmbedStage embed) {
        if (state.inferredIndexModel == null || !state.indexes.isEmpty()) {
            return null;
        }
        boolean modelDiffers = embed.model() != null && !sameModel(state.inferredIndexModel, embed.model());
        if (!modelDiffers) {
            return null;
        }
        return new EmbeddingMismatch(run.pipeline(), state.inferredIndexModel, state.inferredIndexDimensions,
                embed.model(), embed.dimensions(), EmbeddingMismatch.INFERRED,
                describe(run.pipeline(), state.inferredIndexModel, state.inferredIndexDimensions, embed.model(),
                        embed.dimensions(), "the pipeline's queries before the change (no index-building call seen)"));
    }

    /** Query model bookkeeping: baseline, recent scores, candidate changes, the collapse watch. */
    private static void track(DriftState state, Run run, EmbedStage embed, Double score, List<EmbeddingDrift> drift) {
        if (state.query == null) {
            state.query = new DriftState.QuerySide(embed.model(), embed.dimensions());
        }
        DriftState.QuerySide q = state.query;
        if (same(q, embed)) {
            state.candidate = null;
            q.runs++;
            if (score != null) {
                addScore(state, run, q, score, drift);
            }
            watchCollapse(state, run, drift);
            return;
        }
        DriftState.QuerySide c = state.candidate;
        if (c == null || !same(c, embed)) {
            c = new DriftState.QuerySide(embed.model(), embed.dimensions());
            state.candidate = c;
        }
        c.runs++;
        if (score != null) {
            c.addBaseline(score);
        }
        if (c.runs < CONFIRM) {
            return;
        }
        // confirmed: the new model becomes the established one
        drift.add(record(run, run.pipeline(), EmbeddingDrift.MODEL_CHANGED, side(q), side(c),
                "pipeline " + run.pipeline() + " changed its query embedding model from " + label(q.model, q.dimensions)
                        + " to " + label(c.model, c.dimensions) + " (" + CONFIRM + " runs in a row)",
                "If the index was not re-embedded with " + label(c.model, c.dimensions) + ", re-embed it or switch the "
                        + "queries back to " + label(q.model, q.dimensions) + "."));
        state.candidate = null;
        state.query = c;
        if (state.indexes.isEmpty() && state.inferredIndexModel == null) {
            if (q.dimensions != null && c.dimensions != null && !q.dimensions.equals(c.dimensions)) {
                infer(state, run, q, c, "the query dimension changed from " + q.dimensions + " to " + c.dimensions
                        + ", and the store still holds " + q.dimensions + "-dimension vectors", drift);
            } else if (q.n >= MIN_BASELINE) {
                state.watchedBefore = q;
                watchCollapse(state, run, drift);
            }
        }
    }

    private static void watchCollapse(DriftState state, Run run, List<EmbeddingDrift> drift) {
        DriftState.QuerySide before = state.watchedBefore;
        DriftState.QuerySide after = state.query;
        if (before == null || after.n < COLLAPSE_RUNS) {
            return;
        }
        state.watchedBefore = null;
        if (before.mean > 0 && after.mean < COLLAPSE_RATIO * before.mean) {
            infer(state, run, before, after, String.format(Locale.ROOT,
                    "retrieval scores collapsed with the new model (mean top score %.3f, was %.3f)", after.mean,
                    before.mean), drift);
        }
    }

    private static void infer(DriftState state, Run run, DriftState.QuerySide before, DriftState.QuerySide after,
            String why, List<EmbeddingDrift> drift) {
        state.inferredIndexModel = before.model;
        state.inferredIndexDimensions = before.dimensions;
        EmbeddingMismatch m = new EmbeddingMismatch(run.pipeline(), before.model, before.dimensions, after.model,
                after.dimensions, EmbeddingMismatch.INFERRED, why);
        drift.add(record(run, run.pipeline(), EmbeddingDrift.INDEX_MISMATCH, side(before), side(after),
                "pipeline " + run.pipeline() + " probably queries an index built with " + label(before.model,
                        before.dimensions) + " using " + label(after.model, after.dimensions) + ": " + why,
                m.repairHint()));
    }

    private static void addScore(DriftState state, Run run, DriftState.QuerySide q, double score,
            List<EmbeddingDrift> drift) {
        if (q.n < WINDOW) {
            q.addBaseline(score);
            return;
        }
        q.recent.add(score);
        if (q.recent.size() > WINDOW) {
            q.recent.remove(0);
        }
        if (q.recent.size() < WINDOW) {
            return;
        }
        double mean = 0;
        for (double s : q.recent) {
            mean += s;
        }
        mean /= WINDOW;
        double m2 = 0;
        for (double s : q.recent) {
            m2 += (s - mean) * (s - mean);
        }
        double delta = Math.abs(mean - q.mean);
        double standardError = Math.max(q.sd(), 1e-9) / Math.sqrt(WINDOW);
        if (delta < SHIFT_RATIO * Math.abs(q.mean) || delta < SHIFT_Z * standardError) {
            return;
        }
        double sd = Math.sqrt(m2 / (WINDOW - 1));
        drift.add(record(run, run.pipeline(), EmbeddingDrift.SCORES_SHIFTED,
                new EmbeddingDrift.Side(q.model, q.dimensions, q.n, q.mean, q.sd()),
                new EmbeddingDrift.Side(q.model, q.dimensions, WINDOW, mean, sd),
                String.format(Locale.ROOT, "pipeline %s's top retrieval scores shifted from a mean of %.3f to %.3f "
                        + "over its last %d runs with %s", run.pipeline(), q.mean, mean, WINDOW,
                        label(q.model, q.dimensions)),
                "Check whether the index was rebuilt, re-chunked or filled with other content, or the embedding "
                        + "model behind the same name changed."));
        q.n = WINDOW;
        q.mean = mean;
        q.m2 = m2;
        q.recent.clear();
    }

    private static boolean same(DriftState.QuerySide side, EmbedStage embed) {
        boolean models = side.model == null || embed.model() == null ? side.model == null && embed.model() == null
                : sameModel(side.model, embed.model());
        boolean dims = side.dimensions == null || embed.dimensions() == null
                || side.dimensions.equals(embed.dimensions());
        return models && dims;
    }

    /** Model names as vendors vary them: case, an Ollama {@code :latest} tag, a {@code models/} prefix. */
    static boolean sameModel(String a, String b) {
        return normal(a).equals(normal(b));
    }

    private static String normal(String model) {
        String m = model.strip().toLowerCase(Locale.ROOT);
        if (m.startsWith("models/")) {
            m = m.substring("models/".length());
        }
        if (m.endsWith(":latest")) {
            m = m.substring(0, m.length() - ":latest".length());
        }
        return m;
    }

    static Double topScore(RetrieveStage retrieve) {
        if (retrieve == null || !retrieve.present() || retrieve.reconstructed() || retrieve.passages() == null) {
            return null;
        }
        return retrieve.passages().stream().map(Passage::score).filter(s -> s != null && !s.isNaN())
                .max(Comparator.naturalOrder()).orElse(null);
    }

    private static EmbeddingDrift.Side side(DriftState.QuerySide q) {
        if (q == null) {
            return new EmbeddingDrift.Side(null, null, 0, null, null);
        }
        return new EmbeddingDrift.Side(q.model, q.dimensions, q.runs, q.n == 0 ? null : q.mean,
                q.n < 2 ? null : q.sd());
    }

    private static EmbeddingDrift record(Run run, String index, String kind, EmbeddingDrift.Side before,
            EmbeddingDrift.Side after, String text, String hint) {
        Instant at = run.endedAt();
        return new EmbeddingDrift(EmbeddingDrift.SCHEMA_V1, run.pipeline(), index, kind, run.runId(), at, before,
                after, text, hint);
    }

    private static String describe(String index, String indexModel, Integer indexDims, String queryModel,
            Integer queryDims, String source) {
        return "the question was embedded with " + label(queryModel, queryDims) + " but the index '" + index
                + "' holds " + label(indexModel, indexDims) + " vectors (from " + source + "): its similarity "
                + "scores do not measure relevance";
    }

    private static String label(String model, Integer dims) {
        String m = model == null ? "an unnamed model" : model;
        return dims == null ? m : m + " (" + dims + "-d)";
    }
}
