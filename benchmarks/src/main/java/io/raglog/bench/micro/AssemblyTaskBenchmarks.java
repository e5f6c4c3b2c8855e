package io.raglog.bench.micro;

import io.raglog.assemble.AssembleRunsFunction;
import io.raglog.assemble.AssemblySettings;
import io.raglog.calls.ClassifiedCall;
import io.raglog.schemas.Run;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The assembly task's own work per run (issue #27), which {@code RaglogBenchmarks.assembleRun} (the linking of one
 * run's calls) leaves out: buffering each call, the timers, reading the open calls, linking them among the other
 * runs in flight, emitting. {@link AssembleRunsFunction} in Flink's operator test harness on the heap backend, fed
 * the simulated calls as a live job reads them: in the order they ended, each at its end (record timestamp and
 * processing time), the watermark {@link #MAX_OUT_OF_ORDER_MS} behind the newest call and moved every
 * {@link #WATERMARK_EVERY_MS}, as the job's periodic watermarks, its state in {@link #KEY_GROUPS} key groups as the
 * job's one assembly task holds it (Flink's default maximum parallelism). One op is one run; an invocation is all the
 * simulated runs in a fresh harness (its set-up, a few KB a run, is counted too). Not part of
 * {@code raglog bench}'s keys: run it with JMH ({@code -prof gc}) when changing the assembly.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class AssemblyTaskBenchmarks {

    static final int RUNS = 1000;
    static final long MAX_OUT_OF_ORDER_MS = 5_000;
    static final long WATERMARK_EVERY_MS = 200;
    /**
     * Flink's default maximum parallelism, which the job keeps: the heap backend holds a map per key group, and a
     * walk over the state (the time-to-live's cleanup) steps through every one of them.
     */
    static final int KEY_GROUPS = 128;

    @State(Scope.Thread)
    public static class Calls {
        List<ClassifiedCall> byEnd;

        @Setup(Level.Trial)
        public void setUp() {
            byEnd = new ArrayList<>(SimulatedTraffic.generate(RUNS, RaglogBenchmarks.SEED).assemblyInput());
            byEnd.sort(Comparator.comparing(c -> c.event().endedAt()));
        }
    }

    @Benchmark
    @OperationsPerInvocation(RUNS)
    public int assembleRunsLive(Calls calls) throws Exception {
        try (KeyedOneInputStreamOperatorTestHarness<String, ClassifiedCall, Run> h =
                new KeyedOneInputStreamOperatorTestHarness<>(
                        new KeyedProcessOperator<>(new AssembleRunsFunction(AssemblySettings.DEFAULTS)),
                        ClassifiedCall::runKey, Types.STRING, KEY_GROUPS, 1, 0)) {
            h.open();
            long watermark = Long.MIN_VALUE;
            for (ClassifiedCall call : calls.byEnd) {
                long end = call.event().endedAt().toEpochMilli();
                h.setProcessingTime(end);
                h.processElement(call, end);
                if (end - MAX_OUT_OF_ORDER_MS >= watermark + WATERMARK_EVERY_MS || watermark == Long.MIN_VALUE) {
                    watermark = end - MAX_OUT_OF_ORDER_MS;
                    h.processWatermark(watermark);
                }
            }
            h.processWatermark(Long.MAX_VALUE);
            return h.getOutput().size();
        }
    }
}
