package io.raglog.drift;

import io.raglog.flink.JacksonTypeInfo;
import io.raglog.schemas.EmbeddingDrift;
import io.raglog.schemas.Json;
import io.raglog.schemas.Run;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.types.Either;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Keyed by pipeline: the embedding model and dimension each index was built with (from index-building calls, the
 * right side of its input) and the model the pipeline's questions are embedded with (each run's embed stage, the
 * left). Both come from the known passages operator, in the order it read them, so the two run in one task.
 * Every run passes through, with an {@link io.raglog.schemas.EmbeddingMismatch} set when its query model does not
 * match its index's; drift events ({@code raglog.drift/v1}) leave by {@link #DRIFT}. The rules are
 * {@link EmbeddingDriftTracker}'s; the state ({@link DriftState}, one JSON value per pipeline) is bounded (its
 * measured size is in {@code docs/benchmarks.md}).
 *
 * <p>Runs are judged as they arrive, with what the index-building calls showed so far: holding each run until the
 * watermark passed it would put the watermark's lag (seconds, and the sources' idleness when traffic stops) on every
 * verdict. Runs and index-building calls take different paths to the known passages, so a run that reaches it just
 * before an index-building call that came earlier in event time is judged without it; the next runs see it.
 *
 * <p>Metrics ({@code raglog.drift}): {@code runs_embedding_mismatch}, {@code drift_events},
 * {@code index_embeddings_seen}.
 */
public class EmbeddingDriftFunction extends KeyedProcessFunction<String, Either<Run, IndexEmbedding>, Run> {

    private static final long serialVersionUID = 1L;

    public static final OutputTag<EmbeddingDrift> DRIFT =
            new OutputTag<>("embedding-drift", JacksonTypeInfo.of(EmbeddingDrift.class));

    private transient ValueState<String> state;

    /**
     * The state this task last wrote, per pipeline, beside the JSON it was written as. Each run read its pipeline's
     * JSON state back into objects and wrote it again (1.5 % of the task threads' CPU, JFR, issue #27): when the stored
     * JSON is still what this task wrote (the heap backend hands back that very string, RocksDB an equal one), the
     * objects it was written from are taken as they are. One entry per pipeline key of this subtask, as the state has;
     * transient, so after a restart the first read parses.
     */
    private transient Map<String, Written> lastWritten;

    private record Written(String json, DriftState state) {}

    private transient Counter mismatches;
    private transient Counter events;
    private transient Counter indexCalls;

    @Override
    public void open(OpenContext openContext) {
        state = getRuntimeContext().getState(new ValueStateDescriptor<>("embedding-drift", Types.STRING));
        lastWritten = new HashMap<>();
        var group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("drift");
        mismatches = group.counter("runs_embedding_mismatch");
        events = group.counter("drift_events");
        indexCalls = group.counter("index_embeddings_seen");
    }

    /** The key of either input: the pipeline of the run or of the index-building call. */
    public static String pipelineOf(Either<Run, IndexEmbedding> in) {
        return in.isLeft() ? in.left().pipeline() : in.right().pipeline();
    }

    @Override
    public void processElement(Either<Run, IndexEmbedding> in, Context ctx, Collector<Run> out) throws Exception {
        if (in.isLeft()) {
            judge(in.left(), ctx, out);
        } else {
            index(in.right(), ctx.getCurrentKey());
        }
    }

    private void judge(Run run, Context ctx, Collector<Run> out) throws Exception {
        if (run.incomplete() || run.stages() == null || !run.stages().embed().present()) {
            out.collect(run);
            return;
        }
        DriftState s = load(ctx.getCurrentKey());
        EmbeddingDriftTracker.Outcome outcome = EmbeddingDriftTracker.run(s, run);
        store(ctx.getCurrentKey(), s);
        for (EmbeddingDrift d : outcome.drift()) {
            events.inc();
            ctx.output(DRIFT, d);
        }
        if (outcome.mismatch() != null) {
            mismatches.inc();
            out.collect(run.withEmbeddingMismatch(outcome.mismatch()));
        } else {
            out.collect(run);
        }
    }

    private void index(IndexEmbedding call, String pipeline) throws Exception {
        DriftState s = load(pipeline);
        EmbeddingDriftTracker.index(s, call);
        store(pipeline, s);
        indexCalls.inc();
    }

    private DriftState load(String pipeline) throws Exception {
        String json = state.value();
        if (json == null) {
            return new DriftState();
        }
        Written written = lastWritten.get(pipeline);
        return written != null && written.json().equals(json)
                ? written.state()
                : Json.MAPPER.readValue(json, DriftState.class);
    }

    private void store(String pipeline, DriftState s) throws Exception {
        String json = Json.MAPPER.writeValueAsString(s);
        state.update(json);
        lastWritten.put(pipeline, new Written(json, s));
    }
}
