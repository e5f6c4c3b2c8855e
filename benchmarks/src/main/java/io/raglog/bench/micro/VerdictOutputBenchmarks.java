package io.raglog.bench.micro;

import io.raglog.schemas.Verdict;
import io.raglog.sink.EvaluationRecordSerializer;
import io.raglog.sink.JsonRecordSerializer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.ProducerRecord;
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
 * What writing one scored verdict's output records costs (issue #27: JFR put about half of the scoring thread's
 * allocation there): the verdict's JSON record, the fault queue's JSON record when the verdict is queued, and its
 * OpenTelemetry evaluation events as an OTLP record, each by the serializer the job's Kafka sinks use
 * ({@code KafkaConnection}). The verdicts are the shipped bundle's on {@link RaglogBenchmarks.Checked}'s simulated
 * runs, one per op, in turn. Not part of {@code raglog bench}'s keys: run it with JMH ({@code -prof gc}) when changing
 * {@code EvaluationEvents}, {@code EvaluationEventsWriter} (the OTLP record's bytes) or the record serializers.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class VerdictOutputBenchmarks {

    private static final Instant SCORED_AT = Instant.parse("2026-12-01T08:30:00.123456789Z");

    @State(Scope.Thread)
    public static class Verdicts {
        final List<Verdict> verdicts = new ArrayList<>();
        final JsonRecordSerializer<Verdict> verdictRecords =
                new JsonRecordSerializer<>("raglog.verdicts", Verdict::runId);
        final JsonRecordSerializer<Verdict> faultRecords = new JsonRecordSerializer<>("raglog.faults", Verdict::runId);
        final EvaluationRecordSerializer evaluationRecords = new EvaluationRecordSerializer("raglog.evaluations");
        int next;

        @Setup(Level.Trial)
        public void setUp() {
            RaglogBenchmarks.Checked checked = new RaglogBenchmarks.Checked();
            checked.setUp();
            try {
                checked.inputs.forEach(input -> verdicts.add(checked.scorer.score(input, SCORED_AT)));
            } finally {
                checked.tearDown();
            }
        }

        Verdict nextVerdict() {
            next = (next + 1) % verdicts.size();
            return verdicts.get(next);
        }
    }

    /** The records the scoring task's sinks write for one verdict. */
    @Benchmark
    public void writeVerdictRecords(Verdicts v, Blackhole out) {
        Verdict verdict = v.nextVerdict();
        out.consume(v.verdictRecords.serialize(verdict, null, null));
        if (verdict.queued()) {
            out.consume(v.faultRecords.serialize(verdict, null, null));
        }
        out.consume(v.evaluationRecords.serialize(verdict, null, null));
    }

    /** The OTLP evaluation record alone. */
    @Benchmark
    public ProducerRecord<byte[], byte[]> writeEvaluationRecord(Verdicts v) {
        return v.evaluationRecords.serialize(v.nextVerdict(), null, null);
    }
}
