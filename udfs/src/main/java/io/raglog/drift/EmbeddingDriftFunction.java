package io.raglog.drift;

import io.raglog.flink.JacksonTypeInfo;
import io.raglog.schemas.EmbeddingDrift;
import io.raglog.schemas.Json;
import io.raglog.schemas.Run;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Keyed by pipeline: the embedding model and dimension each index was built with (from index-building calls, the
 * second input) and the model the pipeline's questions are embedded with (each run's embed stage, the first input).
 * Every run passes through, with an {@link io.raglog.schemas.EmbeddingMismatch} set when its query model does not
 * match its index's; drift events ({@code raglog.drift/v1}) leave by {@link #DRIFT}. The rules are
 * {@link EmbeddingDriftTracker}'s; the state ({@link DriftState}, one JSON value per pipeline) is bounded (its
 * measured size is in {@code docs/benchmarks.md}).
 *
 * <p><b>Event time, not arrival order.</b> A run is judged against the indexes built before it ended, whichever
 * input reaches this operator first (an index-building batch is often the first sight of a model the index has held
 * all along, so a run still in flight when it comes is judged by it): the two inputs travel different paths (index-building calls straight from
 * classification, runs only once assembly closes them) and checkpoint alignment can hold either back. An element the
 * watermark has already passed is applied at once; the watermark on the index input guarantees every index-building
 * call before it has arrived. One still ahead of the watermark waits in {@link #pending} for an event-time timer at
 * its time, index-building calls before runs of the same millisecond. Runs reach this operator after assembly's
 * watermark passed their end, so nearly all are judged on arrival and few wait.
 *
 * <p>Metrics ({@code raglog.drift}): {@code runs_embedding_mismatch}, {@code drift_events},
 * {@code index_embeddings_seen}.
 */
public class EmbeddingDriftFunction extends KeyedCoProcessFunction<String, Run, IndexEmbedding, Run> {

    private static final long serialVersionUID = 1L;

    public static final OutputTag<EmbeddingDrift> DRIFT =
            new OutputTag<>("embedding-drift", JacksonTypeInfo.of(EmbeddingDrift.class));

    /** What waits for the watermark to reach one millisecond: index-building calls first, then runs. */
    public record Pending(List<IndexEmbedding> indexCalls, List<Run> runs) {
        static Pending empty() {
            return new Pending(new ArrayList<>(), new ArrayList<>());
        }
    }

    private transient ValueState<String> state;
    private transient MapState<Long, Pending> pending;
    private transient Counter mismatches;
    private transient Counter events;
    private transient Counter indexCalls;

    @Override
    public void open(OpenContext openContext) {
        state = getRuntimeContext().getState(new ValueStateDescriptor<>("embedding-drift", Types.STRING));
        pending = getRuntimeContext().getMapState(new MapStateDescriptor<>("embedding-drift-pending", Types.LONG,
                JacksonTypeInfo.of(Pending.class)));
        var group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("drift");
        mismatches = group.counter("runs_embedding_mismatch");
        events = group.counter("drift_events");
        indexCalls = group.counter("index_embeddings_seen");
    }

    @Override
    public void processElement1(Run run, Context ctx, Collector<Run> out) throws Exception {
        if (run.incomplete() || run.stages() == null || !run.stages().embed().present()) {
            out.collect(run);
            return;
        }
        long at = run.endedAt() == null ? Long.MIN_VALUE : run.endedAt().toEpochMilli();
        if (at <= ctx.timerService().currentWatermark()) {
            judge(run, ctx, out);
        } else {
            hold(at, ctx, p -> p.runs().add(run));
        }
    }

    @Override
    public void processElement2(IndexEmbedding call, Context ctx, Collector<Run> out) throws Exception {
        long at = call.at() == null ? Long.MIN_VALUE : call.at().toEpochMilli();
        if (at <= ctx.timerService().currentWatermark()) {
            learn(call);
        } else {
            hold(at, ctx, p -> p.indexCalls().add(call));
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Run> out) throws Exception {
        Pending p = pending.get(timestamp);
        if (p == null) {
            return;
        }
        pending.remove(timestamp);
        for (IndexEmbedding call : p.indexCalls()) {
            learn(call);
        }
        for (Run run : p.runs()) {
            judge(run, ctx, out);
        }
    }

    /** Keeps an element ahead of the watermark with the others of its millisecond, until a timer there. */
    private void hold(long at, Context ctx, Consumer<Pending> add) throws Exception {
        Pending p = pending.get(at);
        if (p == null) {
            ctx.timerService().registerEventTimeTimer(at);
            p = Pending.empty();
        }
        add.accept(p);
        pending.put(at, p);
    }

    private void judge(Run run, Context ctx, Collector<Run> out) throws Exception {
        DriftState s = load();
        EmbeddingDriftTracker.Outcome outcome = EmbeddingDriftTracker.run(s, run);
        state.update(Json.MAPPER.writeValueAsString(s));
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

    private void learn(IndexEmbedding call) throws Exception {
        DriftState s = load();
        EmbeddingDriftTracker.index(s, call);
        state.update(Json.MAPPER.writeValueAsString(s));
        indexCalls.inc();
    }

    private DriftState load() throws Exception {
        String json = state.value();
        return json == null ? new DriftState() : Json.MAPPER.readValue(json, DriftState.class);
    }
}
