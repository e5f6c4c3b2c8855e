package io.raglog.assemble;

import io.raglog.calls.ClassifiedCall;
import io.raglog.flink.JacksonTypeInfo;
import io.raglog.schemas.Run;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/**
 * Assembles runs per (pipeline, run hint) key; calls without a hint share their pipeline's key and are linked by
 * content.
 *
 * <p>Why keyed state and timers rather than a window: a run has no fixed length and is closed by a particular call
 * (the generator), with a grace after it; unhinted runs of one pipeline interleave in one key and close at different
 * times. A window with a custom trigger could fire on the generator, but it would purge the other runs' calls with
 * it. Here calls wait in a map until {@link RunLinker} claims them, and every path that emits a run removes exactly
 * the calls it used.
 */
public class AssembleRunsFunction extends KeyedProcessFunction<String, ClassifiedCall, Run> {

    private static final long serialVersionUID = 1L;

    /** Calls that arrived for a hinted run that was already closed: reported, not silently merged or dropped. */
    public static final OutputTag<ClassifiedCall> LATE = new OutputTag<>("late-calls",
            JacksonTypeInfo.of(ClassifiedCall.class));

    private final AssemblySettings settings;

    private transient MapState<String, ClassifiedCall> pending;
    private transient ValueState<Long> closedAt;
    private transient Counter runs;
    private transient Counter incompleteRuns;
    private transient Counter lateCalls;

    public AssembleRunsFunction(AssemblySettings settings) {
        this.settings = settings;
    }

    @Override
    public void open(OpenContext openContext) {
        StateTtlConfig ttl = StateTtlConfig.newBuilder(settings.stateTtl())
                .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired)
                .build();
        MapStateDescriptor<String, ClassifiedCall> pendingDescriptor = new MapStateDescriptor<>(
                "pending-calls", Types.STRING, JacksonTypeInfo.of(ClassifiedCall.class));
        pendingDescriptor.enableTimeToLive(ttl);
        pending = getRuntimeContext().getMapState(pendingDescriptor);
        ValueStateDescriptor<Long> closedDescriptor = new ValueStateDescriptor<>("hinted-run-closed-at", Types.LONG);
        closedDescriptor.enableTimeToLive(ttl);
        closedAt = getRuntimeContext().getState(closedDescriptor);

        var group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("assembly");
        runs = group.counter("runs");
        incompleteRuns = group.counter("incomplete_runs");
        lateCalls = group.counter("late_calls");
    }

    @Override
    public void processElement(ClassifiedCall call, Context ctx, Collector<Run> out) throws Exception {
        Long arrival = ctx.timestamp(); // the record's event time (Kafka: its timestamp); null in batch replay
        if (arrival != null && arrival < ctx.timerService().currentWatermark()) {
            lateCalls.inc(); // counted; it may still join a run that is open
        }
        long eventTime = call.event().endedAt().toEpochMilli();
        if (call.event().hasRunHint() && closedAt.value() != null) {
            ctx.output(LATE, call);
            return;
        }
        pending.put(call.event().eventId(), call);
        if (call.event().failed() || call.stage() != io.raglog.schemas.Stage.GENERATE) {
            // why: a call no generator claims must still leave state, as part of an incomplete run
            ctx.timerService().registerEventTimeTimer(roundUp(eventTime + settings.runTimeout().toMillis()));
        } else {
            // why: the generator call closes its run once stragglers have had the grace to arrive
            ctx.timerService().registerEventTimeTimer(eventTime + settings.grace().toMillis());
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Run> out) throws Exception {
        List<ClassifiedCall> calls = new ArrayList<>();
        for (ClassifiedCall c : pending.values()) {
            calls.add(c);
        }
        if (calls.isEmpty()) {
            forgetClosedRun(timestamp);
            return;
        }
        ClassifiedCall any = calls.get(0);
        String hint = any.event().hasRunHint() ? any.event().runHint() : null;
        boolean closedAComplete = false;
        for (RunLinker.Assembled assembled : RunLinker.link(any.event().pipeline(), hint, calls, timestamp, settings)) {
            out.collect(assembled.run());
            runs.inc();
            if (assembled.run().incomplete()) {
                incompleteRuns.inc();
            } else {
                closedAComplete = true;
            }
            for (String id : assembled.consumedEventIds()) {
                pending.remove(id);
            }
        }
        if (hint != null && closedAComplete) {
            // A hinted key holds one run. Calls still buffered started after its generator ended: they are reported
            // as late rather than flushed later as a second run under the same id.
            for (ClassifiedCall leftover : pending.values()) {
                ctx.output(LATE, leftover);
            }
            pending.clear();
            closedAt.update(timestamp);
            if (ctx.timerService().currentWatermark() < Long.MAX_VALUE) {
                // why: remember the closed hinted run for a while, then let the key's state go entirely. At the end
                // of the input (batch replay) nothing more can arrive, and the key's state is dropped anyway.
                ctx.timerService().registerEventTimeTimer(timestamp + settings.closedRunMemory().toMillis());
            }
        } else if (pending.isEmpty()) {
            pending.clear();
        }
    }

    private void forgetClosedRun(long timestamp) throws Exception {
        Long closed = closedAt.value();
        if (closed != null && closed + settings.closedRunMemory().toMillis() <= timestamp) {
            closedAt.clear();
        }
    }

    /** Timers are coalesced to the second: a burst of calls for one key registers one timeout timer, not hundreds. */
    private static long roundUp(long millis) {
        return (millis / 1000 + 1) * 1000;
    }
}
