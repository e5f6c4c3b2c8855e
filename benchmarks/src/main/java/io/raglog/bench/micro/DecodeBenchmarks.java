package io.raglog.bench.micro;

import io.raglog.ingest.CallEventDecoder;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;

/**
 * The job's decode task alone (issue #27): one simulated call's wire bytes to a {@code CallEvent}, as
 * {@code DecodeCallsFunction} does, without the classification that {@link RaglogBenchmarks#decodeAndClassifyCall}
 * adds. The traffic's embedding and vector-store calls carry their vectors as JSON arrays of numbers, whose parsed
 * tree was a third of decoding's allocation (JFR). Holding those as doubles ({@code JsonTrees}) took it from 18.7 to
 * 15.0 KB allocated an op (same session, old against new; throughput the same within the noise). Not part of
 * {@code raglog bench}'s keys: run it with JMH ({@code -prof gc}) when changing how calls are parsed.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class DecodeBenchmarks {

    @Benchmark
    public CallEventDecoder.Decoded decodeCall(RaglogBenchmarks.Traffic t) {
        return CallEventDecoder.decode(t.nextPayload());
    }
}
