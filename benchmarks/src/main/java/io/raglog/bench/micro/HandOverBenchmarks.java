package io.raglog.bench.micro;

import io.raglog.calls.Classification;
import io.raglog.calls.ClassifiedCall;
import io.raglog.flink.JacksonSerializer;
import io.raglog.ingest.CallEventDecoder;
import io.raglog.schemas.Run;
import io.raglog.score.ScoringInput;
import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What handing a run between the job's tasks costs (issue #27): its calls written by the classify task and read by
 * the assembly, and the run written and read once (the job hands it on twice: to the known passages, whose task
 * also runs the drift and the checks, and as scoring input); and a checked run's scoring input, from the checks' task
 * to the scoring task ({@link #handOverScoringInput}). Flink's own buffers are stood in for by one reused output and input
 * view, as a task's record writer and reader reuse theirs. Not part of {@code raglog bench}'s keys: run it with JMH
 * ({@code -prof gc}) when changing {@link JacksonSerializer}.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class HandOverBenchmarks {

    @State(Scope.Thread)
    public static class Runs {
        SimulatedTraffic traffic;
        final JacksonSerializer<ClassifiedCall> calls = new JacksonSerializer<>(ClassifiedCall.class);
        final JacksonSerializer<Run> runs = new JacksonSerializer<>(Run.class);
        final DataOutputSerializer out = new DataOutputSerializer(64 * 1024);
        final DataInputDeserializer in = new DataInputDeserializer();
        int next;

        @Setup(Level.Trial)
        public void setUp() {
            traffic = SimulatedTraffic.generate(RaglogBenchmarks.RUNS, RaglogBenchmarks.SEED);
        }

        SimulatedTraffic.LinkedRun nextRun() {
            next = (next + 1) % traffic.runs().size();
            return traffic.runs().get(next);
        }

        /** The record written and read back, as a hand-over between two tasks does. */
        <T> T handOver(T record, JacksonSerializer<T> serializer) throws IOException {
            out.clear();
            serializer.serialize(record, out);
            in.setBuffer(out.getSharedBuffer(), 0, out.length());
            return serializer.deserialize(in);
        }
    }

    @Benchmark
    public void handOverRun(Runs s, Blackhole sink) throws IOException {
        SimulatedTraffic.LinkedRun r = s.nextRun();
        for (ClassifiedCall call : r.calls()) {
            sink.consume(s.handOver(call, s.calls));
        }
        sink.consume(s.handOver(r.run(), s.runs));
    }

    /**
     * The calls of a run alone, as the classify task hands them to the assembly ({@link ClassifiedCall#forAssembly()}):
     * the share of {@link #handOverRun} that a change to what a call carries moves.
     */
    @Benchmark
    public void handOverCalls(Runs s, Blackhole sink) throws IOException {
        for (ClassifiedCall call : s.nextRun().calls()) {
            sink.consume(s.handOver(call, s.calls));
        }
    }

    /**
     * The calls of a run from the classifier on: made ready for the assembly in the classify task
     * ({@link ClassifiedCall#forAssembly()}), written there, read by the assembly. What a change to what a call
     * carries costs the classify task is counted here, not in {@link #handOverCalls}.
     */
    @Benchmark
    public void classifyAndHandOverCalls(Runs s, Blackhole sink) throws IOException {
        for (ClassifiedCall call : s.nextRun().classified()) {
            sink.consume(s.handOver(call.forAssembly(), s.calls));
        }
    }

    /**
     * One call's wire bytes through the whole of the classify task's work, as the job does it: decoded
     * ({@code DecodeCallsFunction}), classified, made ready for the assembly ({@link ClassifiedCall#forAssembly()}) and
     * written for the hand-over, not read back (that is the assembly's task). Unlike {@link #classifyAndHandOverCalls},
     * whose calls the simulator built, the bodies are the trees decoding makes ({@code JsonTrees}: their objects'
     * fields in a {@code CompactLinkedMap}, their vectors as doubles), as a hinted call's {@code HeldBodies} writes them.
     */
    @Benchmark
    public void decodeClassifyAndWriteCall(RaglogBenchmarks.Traffic t, Runs s) throws IOException {
        CallEventDecoder.Decoded decoded = CallEventDecoder.decode(t.nextPayload());
        if (decoded.ok() && t.classifier.classify(decoded.event()) instanceof Classification.Classified c
                && c.call().stage() != null) {
            s.out.clear();
            s.calls.serialize(c.call().forAssembly(), s.out);
        }
    }

    /** Each thread's views for {@link #handOverScoringInput}; the runs are {@link RaglogBenchmarks.Checked}'s. */
    @State(Scope.Thread)
    public static class ScoringInputs {
        final JacksonSerializer<ScoringInput> inputs = new JacksonSerializer<>(ScoringInput.class);
        final DataOutputSerializer out = new DataOutputSerializer(64 * 1024);
        final DataInputDeserializer in = new DataInputDeserializer();
    }

    /**
     * One checked run handed from the checks' task to the scoring task: its features (every feature of the list by
     * name), LLM usage, evidence flow and findings, written and read once. The runs went through the rule, vector
     * and (offline-judged) LLM checks, as in {@link RaglogBenchmarks#scoreRun}. Their features packed without their
     * names ({@code PackedFeatures}) took it from 24.0 to 11.3 KB allocated an op, 67 to 125 thousand ops a second.
     */
    @Benchmark
    public void handOverScoringInput(RaglogBenchmarks.Checked c, ScoringInputs s, Blackhole sink) throws IOException {
        ScoringInput input = c.inputs.get(c.nextIndex());
        s.out.clear();
        s.inputs.serialize(input, s.out);
        s.in.setBuffer(s.out.getSharedBuffer(), 0, s.out.length());
        sink.consume(s.inputs.deserialize(s.in));
    }
}
