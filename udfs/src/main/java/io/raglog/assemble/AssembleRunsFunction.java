package io.raglog.assemble;

import io.raglog.calls.ClassifiedCall;
import io.raglog.flink.JacksonTypeInfo;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.StateTtlConfig;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.metrics.Counter;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.TimeDomain;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.operators.TimestampedCollector;
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
 *
 * <p>Two clocks close runs. Event time is the reference: a run closes when the watermark passes its generator call +
 * the grace, and calls no generator claims leave as incomplete runs after the run timeout. With the watermark
 * trailing the newest call by the max out-of-order delay, that is seconds after the answer, so a generator call that
 * arrives live also closes its run after a short processing-time wait ({@link AssemblySettings#generatorWait()}):
 * the same linking, run earlier. Both paths remove what they used, so whichever fires second finds nothing to do.
 */
public class AssembleRunsFunction extends KeyedProcessFunction<String, ClassifiedCall, Run>
        implements CheckpointedFunction {

    private static final long serialVersionUID = 1L;

    /** Calls that arrived for a hinted run that was already closed: reported, not silently merged or dropped. */
    public static final OutputTag<ClassifiedCall> LATE = new OutputTag<>("late-calls",
            JacksonTypeInfo.of(ClassifiedCall.class));

    /**
     * Calls whose linking signals stay read between timers (all subtask keys together): a few seconds of calls at a
     * few hundred runs/s; beyond it (runs that never finish piling up) further calls are read on each timer instead.
     */
    static final int MAX_CACHED_CALLS = 4096;

    private final AssemblySettings settings;

    private transient MapState<String, ClassifiedCall> pending;
    private transient ValueState<Long> closedAt;
    /** Prompt closes to do: processing time due → the latest generator end (event time) due then. */
    private transient MapState<Long, Long> promptCloses;
    /**
     * The keys that hold prompt closes, when this instance wrote all of them (it did not start from a restore); null
     * otherwise, and state is asked. Why: asking the near-empty prompt closes whether they are empty is a state read
     * each time a run leaves (a seek on RocksDB; on the heap, while Flink's incremental time-to-live cleanup ran on
     * these states, a walk over every key group, the assembly task's largest allocation site in a JFR profile, issue
     * #27).
     */
    private transient Set<String> withPromptCloses;
    /**
     * How long this key's generator calls wait for a later step of their answer (milliseconds), learned from a step
     * that came after its run had closed ({@link SynthesisChains}); absent for the pipelines that answer in one call.
     */
    private transient ValueState<Long> stepWait;
    /** The same, for pipelines that send run hints: their keys hold one run each ({@link HintedStepWaits}). */
    private transient HintedStepWaits hintedStepWaits;
    private transient CallSignalsCache signals;
    private transient PendingIndex index;
    private transient StateSweeps sweeps;
    private transient Counter runs;
    private transient Counter incompleteRuns;
    private transient Counter orphanRuns;
    private transient Counter orphanCalls;
    private transient Counter lateCalls;
    private transient Counter promptRuns;
    private transient Counter gatedRuns;
    private transient Counter lateSteps;

    /** Flink's default for the compaction filter: how often it reads the current time, in entries filtered. */
    private static final long ROCKSDB_TTL_QUERY_AFTER_ENTRIES = 1000;

    public AssembleRunsFunction(AssemblySettings settings) {
        this.settings = settings;
    }

    /**
     * The states' time-to-live: a safety net (see {@link AssemblySettings#stateTtl()}), counted from a value's write,
     * an expired value never read.
     */
    private StateTtlConfig.Builder ttl() {
        return StateTtlConfig.newBuilder(settings.stateTtl())
                .setUpdateType(StateTtlConfig.UpdateType.OnCreateAndWrite)
                .setStateVisibility(StateTtlConfig.StateVisibility.NeverReturnExpired);
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {
        withPromptCloses = context.isRestored() ? null : new HashSet<>();
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
        // nothing of its own: its state is keyed
    }

    @Override
    public void open(OpenContext openContext) {
        // No state here is cleaned up as the heap backend's state is read (Flink's incremental cleanup, see
        // StateSweeps): timers take each out. The buffered calls, the bulk of it, have a processing-time sweep besides;
        // a hinted run's closing time and the prompt closes are a number each, beside a timer of their own. RocksDB's
        // compaction filter costs the task nothing; it stays.
        StateTtlConfig timerCleared = ttl().disableCleanupInBackground()
                .cleanupInRocksdbCompactFilter(ROCKSDB_TTL_QUERY_AFTER_ENTRIES).build();
        MapStateDescriptor<String, ClassifiedCall> pendingDescriptor = new MapStateDescriptor<>(
                "pending-calls", Types.STRING, JacksonTypeInfo.of(ClassifiedCall.class));
        pendingDescriptor.enableTimeToLive(timerCleared);
        pending = getRuntimeContext().getMapState(pendingDescriptor);
        ValueStateDescriptor<Long> closedDescriptor = new ValueStateDescriptor<>("hinted-run-closed-at", Types.LONG);
        closedDescriptor.enableTimeToLive(timerCleared);
        closedAt = getRuntimeContext().getState(closedDescriptor);
        MapStateDescriptor<Long, Long> promptDescriptor = new MapStateDescriptor<>("prompt-closes", Types.LONG,
                Types.LONG);
        promptDescriptor.enableTimeToLive(timerCleared);
        promptCloses = getRuntimeContext().getMapState(promptDescriptor);
        ValueStateDescriptor<Long> stepWaitDescriptor = new ValueStateDescriptor<>("synthesis-step-wait", Types.LONG);
        stepWaitDescriptor.enableTimeToLive(timerCleared); // a pipeline that stops refining forgets it in a while
        stepWait = getRuntimeContext().getState(stepWaitDescriptor);
        hintedStepWaits = new HintedStepWaits();
        signals = new CallSignalsCache(MAX_CACHED_CALLS);
        index = new PendingIndex();
        sweeps = new StateSweeps(settings.stateTtl());

        var group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("assembly");
        runs = group.counter("runs");
        incompleteRuns = group.counter("incomplete_runs");
        // calls no run claimed (content linking could not place them): the figure that says linking is failing
        orphanRuns = group.counter("orphan_runs");
        orphanCalls = group.counter("orphan_calls");
        lateCalls = group.counter("late_calls");
        promptRuns = group.counter("runs_closed_on_generator_arrival");
        // runs the pipeline's own relevance gate stopped before generating: checked like the rest, counted apart
        gatedRuns = group.counter("runs_stopped_by_gate");
        // later steps of an answer synthesised in several calls that came after its run had closed (then learned)
        lateSteps = group.counter("late_synthesis_steps");
    }

    @Override
    public void processElement(ClassifiedCall call, Context ctx, Collector<Run> out) throws Exception {
        Long arrival = ctx.timestamp(); // the record's event time (Kafka: its timestamp); null in batch replay
        if (arrival != null && arrival < ctx.timerService().currentWatermark()) {
            lateCalls.inc(); // counted; it may still join a run that is open
        }
        long eventTime = call.event().endedAt().toEpochMilli();
        if (call.event().hasRunHint() && closedAt.value() != null) {
            if (SynthesisChains.isStep(call)) {
                // a later step of the answer its run was closed without: its pipeline's next runs wait for theirs
                lateSteps.inc();
                learnStepWait(ctx.getCurrentKey(), 2 * (eventTime - call.event().startedAt().toEpochMilli()));
            }
            ctx.output(LATE, call);
            return;
        }
        pending.put(call.event().eventId(), call);
        index.add(ctx.getCurrentKey(), call);
        sweeps.ensure(ctx.getCurrentKey(), ctx.timerService());
        signals.forget(ctx.getCurrentKey(), call.event().eventId()); // a redelivered event id: read it again
        if (call.event().failed() || call.stage() != Stage.GENERATE) {
            // why: a call no generator claims must still leave state, as part of an incomplete run
            ctx.timerService().registerEventTimeTimer(roundUp(eventTime + settings.runTimeout().toMillis()));
        } else {
            AssemblySettings keySettings = settingsOfKey(ctx.getCurrentKey());
            // why: the generator call closes its run once stragglers have had the grace to arrive
            ctx.timerService().registerEventTimeTimer(eventTime + keySettings.grace().toMillis());
            if (arrivedLive(arrival, ctx.timerService().currentProcessingTime())) {
                // why: ... or sooner, a short wait after it arrived, when it arrived live (see AssemblySettings)
                long due = ctx.timerService().currentProcessingTime() + keySettings.generatorWait().toMillis();
                Long end = promptCloses.get(due);
                promptCloses.put(due, end == null ? eventTime : Math.max(end, eventTime));
                if (withPromptCloses != null) {
                    withPromptCloses.add(ctx.getCurrentKey());
                }
                ctx.timerService().registerProcessingTimeTimer(due);
            }
        }
    }

    /**
     * The settings for the current key: the job's, unless its pipeline was seen to answer in several calls (for a
     * hinted key, whose one run teaches nothing to its own state, what its pipeline taught this subtask).
     */
    private AssemblySettings settingsOfKey(String key) throws IOException {
        Long wait = ClassifiedCall.hintedKey(key) ? hintedStepWaits.waitFor(key) : stepWait.value();
        if (wait == null) {
            return settings;
        }
        if (wait != waitingMs) { // made once per learned wait, not for every generator call and timer of its keys
            waitingMs = wait;
            waiting = settings.waitingForSteps(Duration.ofMillis(wait));
        }
        return waiting;
    }

    /** The settings of the last learned wait asked for, and that wait: few pipelines learn one. */
    private transient AssemblySettings waiting;
    private transient long waitingMs = -1;

    /**
     * The key's pipeline answers in several calls (a step came late, or an answer's steps came whole): from now on its
     * generator calls wait for a next step as long as {@code stepsMs} and a second more, or longer if learned before.
     */
    private void learnStepWait(String key, long stepsMs) throws IOException {
        long wait = Math.max(0, stepsMs) + 1000;
        if (ClassifiedCall.hintedKey(key)) {
            hintedStepWaits.learn(key, wait);
            return;
        }
        Long learned = stepWait.value();
        if (learned == null || learned < wait) {
            stepWait.update(wait);
        }
    }

    private boolean arrivedLive(Long recordTimestamp, long processingTime) {
        return settings.promptClose() && recordTimestamp != null
                && processingTime - recordTimestamp <= settings.generatorWaitMaxLag().toMillis();
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Run> out) throws Exception {
        if (ctx.timeDomain() == TimeDomain.PROCESSING_TIME) {
            closeOnGeneratorArrival(timestamp, ctx, out);
            if (sweeps.isSweep(ctx.getCurrentKey(), timestamp)) {
                sweep(ctx);
            }
            return;
        }
        String key = ctx.getCurrentKey();
        indexed(key);
        AssemblySettings keySettings = settingsOfKey(ctx.getCurrentKey());
        if (!index.isEmpty(key) && !index.anyDue(key, timestamp, RunLinker.due(timestamp, keySettings, true))) {
            return; // linking would emit nothing: no call of the key is read
        }
        List<CallSignals> open = openCalls(key, timestamp);
        if (open.isEmpty()) {
            if (index.isEmpty(key)) {
                forget(key, ctx);
                forgetClosedRun(timestamp);
                forgetPromptCloses(ctx);
            }
            return; // else: only calls that started after this timer are buffered; a later timer links them
        }
        String hint = hintOf(open);
        List<RunLinker.Assembled> assembled = RunLinker.linkSignals(pipelineOf(open), hint, open, timestamp,
                keySettings);
        emit(assembled, hint, timestamp, ctx, out);
    }

    /** The prompt path: the runs of the generator calls whose wait is over, linked as event time would link them. */
    private void closeOnGeneratorArrival(long now, OnTimerContext ctx, Collector<Run> out) throws Exception {
        long upToEnd = Long.MIN_VALUE;
        List<Long> done = new ArrayList<>();
        int held = 0;
        for (Map.Entry<Long, Long> e : promptCloses.entries()) {
            held++;
            if (e.getKey() <= now) {
                upToEnd = Math.max(upToEnd, e.getValue());
                done.add(e.getKey());
            }
        }
        for (Long due : done) {
            promptCloses.remove(due);
        }
        if (withPromptCloses != null && done.size() == held) {
            withPromptCloses.remove(ctx.getCurrentKey());
        }
        if (upToEnd == Long.MIN_VALUE) {
            return;
        }
        String key = ctx.getCurrentKey();
        AssemblySettings keySettings = settingsOfKey(ctx.getCurrentKey());
        long linkAt = upToEnd + keySettings.grace().toMillis();
        indexed(key);
        if (!index.anyDue(key, linkAt, RunLinker.due(linkAt, keySettings, false))) {
            return; // their runs closed already: on event time, or in an earlier prompt close that linked them
        }
        List<CallSignals> open = openCalls(key, linkAt);
        if (open.isEmpty()) {
            return;
        }
        String hint = hintOf(open);
        List<RunLinker.Assembled> assembled = RunLinker.closeGenerators(pipelineOf(open), hint, open, upToEnd,
                keySettings);
        promptRuns.inc(assembled.size());
        // the event time these runs would have closed at: downstream event-time operators (the fault-rate windows)
        // need a timestamp, and Flink sends none with what a processing-time timer emits
        long eventTime = upToEnd + keySettings.grace().toMillis();
        if (out instanceof TimestampedCollector<Run> timestamped) {
            timestamped.setAbsoluteTimestamp(eventTime);
        }
        emit(assembled, hint, eventTime, ctx, out);
    }

    private void emit(List<RunLinker.Assembled> assembled, String hint, long eventTime, OnTimerContext ctx,
            Collector<Run> out) throws Exception {
        boolean closedAComplete = false;
        for (RunLinker.Assembled a : assembled) {
            out.collect(a.run());
            runs.inc();
            if (a.run().incomplete()) {
                incompleteRuns.inc();
                if (IncompleteRuns.orphan(a.run())) {
                    orphanRuns.inc();
                    orphanCalls.inc(a.run().callIds().size());
                }
                if (SynthesisChains.LATE_STEP_REASON.equals(a.run().incompleteReason())) {
                    lateSteps.inc();
                    // twice the step's time: it began after the step before it ended
                    learnStepWait(ctx.getCurrentKey(),
                            2 * (a.run().endedAt().toEpochMilli() - a.run().startedAt().toEpochMilli()));
                }
            } else {
                closedAComplete = true;
                if (SynthesisChains.steps(a.run()) > 1) {
                    // an answer in several steps came whole: its pipeline's next answers wait as long as this took
                    learnStepWait(ctx.getCurrentKey(), a.run().stages().generate().latencyMs());
                }
                if (a.run().stages().generate().stoppedByGate()) {
                    gatedRuns.inc();
                }
            }
            for (String id : a.consumedEventIds()) {
                pending.remove(id);
                index.remove(ctx.getCurrentKey(), id);
                signals.forget(ctx.getCurrentKey(), id);
            }
        }
        if (hint != null && closedAComplete) {
            // A hinted key holds one run. Calls still buffered started after its generator ended: they are reported
            // as late rather than flushed later as a second run under the same id.
            for (ClassifiedCall leftover : pending.values()) {
                ctx.output(LATE, leftover);
            }
            pending.clear();
            index.clear(ctx.getCurrentKey());
            closedAt.update(eventTime);
            if (ctx.timerService().currentWatermark() < Long.MAX_VALUE) {
                // why: remember the closed hinted run for a while, then let the key's state go entirely. At the end
                // of the input (batch replay) nothing more can arrive, and the key's state is dropped anyway.
                ctx.timerService().registerEventTimeTimer(eventTime + settings.closedRunMemory().toMillis());
            }
        }
        if (index.isEmpty(ctx.getCurrentKey())) {
            forget(ctx.getCurrentKey(), ctx);
            forgetPromptCloses(ctx);
        }
    }

    /**
     * The buffered calls of the current key that linking at {@code now} can use, with their signals: read from state
     * only when their signals are not on the heap. (A call kept on the heap can still join its run after the state's
     * time-to-live dropped it, which takes hours of stalled event time; one that is not is gone, as before.)
     */
    private List<CallSignals> openCalls(String key, long now) throws Exception {
        List<CallSignals> open = new ArrayList<>();
        for (String id : index.linkable(key, now)) {
            CallSignals s = signals.get(key, id);
            if (s == null) {
                ClassifiedCall call = pending.get(id);
                if (call == null) {
                    index.remove(key, id); // dropped by the state's time-to-live
                    continue;
                }
                s = signals.put(key, id, new CallSignals(call));
            }
            open.add(s);
        }
        return open;
    }

    /** Makes sure the key is indexed: after a start or a restore, by one walk of its buffered calls. */
    private void indexed(String key) throws Exception {
        if (!index.knows(key)) {
            index.load(key, pending.entries());
        }
    }

    /** The key's buffer is empty: what the heap knew of it goes too, and its sweep is called off. */
    private void forget(String key, OnTimerContext ctx) {
        index.forget(key);
        signals.forget(key);
        sweeps.cancel(key, ctx.timerService());
    }

    /**
     * The key's sweep: reading its buffered calls drops those the time-to-live expired (Flink's time-to-live removes
     * what it finds expired as it reads). A key left empty is forgotten; one that is not is swept again later.
     */
    private void sweep(OnTimerContext ctx) throws Exception {
        String key = ctx.getCurrentKey();
        boolean holdsCalls = false;
        for (Map.Entry<String, ClassifiedCall> ignored : pending.entries()) {
            holdsCalls = true;
        }
        if (!holdsCalls) {
            pending.clear(); // what reading left: the heap backend keeps the key's map, emptied, until it is cleared
            index.forget(key);
            signals.forget(key);
        }
        // at the end of the input (a batch replay fires every timer then) no later sweep could be registered
        sweeps.swept(key, holdsCalls && ctx.timerService().currentWatermark() < Long.MAX_VALUE, ctx.timerService());
    }

    private static String hintOf(List<CallSignals> open) {
        ClassifiedCall any = open.get(0).call;
        return any.event().hasRunHint() ? any.event().runHint() : null;
    }

    private static String pipelineOf(List<CallSignals> open) {
        return open.get(0).call.event().pipeline();
    }

    /** Nothing left to close: drop the prompt closes still due, and their timers. */
    private void forgetPromptCloses(OnTimerContext ctx) throws Exception {
        if (withPromptCloses != null && !withPromptCloses.remove(ctx.getCurrentKey())) {
            return; // none written, or all done: the state is not asked
        }
        if (promptCloses.isEmpty()) {
            return;
        }
        for (Long due : promptCloses.keys()) {
            ctx.timerService().deleteProcessingTimeTimer(due);
        }
        promptCloses.clear();
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
