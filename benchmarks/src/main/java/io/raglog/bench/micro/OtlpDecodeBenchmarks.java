package io.raglog.bench.micro;

import io.raglog.calls.CallClassifier;
import io.raglog.calls.builtin.BuiltInAdapters;
import io.raglog.calls.otlp.OtlpDecoder;
import io.raglog.calls.otlp.OtlpDecoding;
import io.raglog.calls.otlp.SpanFilter;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.simulator.Simulator;
import io.raglog.simulator.SimulatorOptions;
import io.raglog.simulator.output.MemorySink;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * The job's OTLP decode task alone (issue #27): one simulated {@code ExportTraceServiceRequest} in OTLP/JSON, as the
 * Collector's Kafka exporter writes it, decoded into a call per stage span and each call classified, as
 * {@code DecodeOtlpFunction} and the classify step after it do. The simulator's traced profiles make the messages.
 * Not part of {@code raglog bench}'s keys: run it with JMH ({@code -prof gc}) when changing how traces are read.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class OtlpDecodeBenchmarks {

    @State(Scope.Thread)
    public static class Traces {
        List<byte[]> messages;
        OtlpDecoder decoder;
        CallClassifier classifier;
        int next;

        @Setup(Level.Trial)
        public void setUp() {
            MemorySink sink = new MemorySink();
            new Simulator(SimulatorOptions.of("all", RaglogBenchmarks.RUNS, RaglogBenchmarks.SEED)).run(sink);
            messages = sink.traces().stream().map(Json::writeBytes).toList();
            if (messages.isEmpty()) {
                throw new IllegalStateException("the simulator's profiles made no OTLP traces");
            }
            decoder = OtlpDecoder.forEncoding(OtlpDecoder.OTLP_JSON, SpanFilter.stagesOnly());
            classifier = BuiltInAdapters.classifier();
        }

        byte[] nextMessage() {
            next = (next + 1) % messages.size();
            return messages.get(next);
        }
    }

    /** One message decoded into its stage spans' calls. */
    @Benchmark
    public OtlpDecoding decodeOtlpMessage(Traces t) {
        return t.decoder.decode(t.nextMessage());
    }

    /** One message decoded, and each of its calls classified. */
    @Benchmark
    public void decodeAndClassifyOtlpMessage(Traces t, Blackhole out) {
        OtlpDecoding decoded = t.decoder.decode(t.nextMessage());
        for (CallEvent call : decoded.calls()) {
            out.consume(t.classifier.classify(call));
        }
    }
}
