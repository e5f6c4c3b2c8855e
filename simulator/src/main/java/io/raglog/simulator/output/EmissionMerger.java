package io.raglog.simulator.output;

import io.raglog.schemas.CallEvent;
import io.raglog.simulator.wire.OtlpSpan;
import java.time.Instant;
import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * Interleaves the calls of the many runs in flight into the order a proxy finishes capturing them (by end time), and
 * hands finished spans to the exporter in the order they end. Runs are generated in arrival order, and a call ends
 * after its run arrived, so everything that ended by the latest arrival can be released: memory stays bounded by the
 * runs in flight.
 */
public final class EmissionMerger {

    private record Pending<T>(Instant at, long seq, T item) {}

    private static final Comparator<Pending<?>> ORDER =
            Comparator.<Pending<?>, Instant>comparing(Pending::at).thenComparingLong(Pending::seq);

    private final PriorityQueue<Pending<CallEvent>> calls = new PriorityQueue<>(ORDER);
    private final PriorityQueue<Pending<OtlpSpan>> spans = new PriorityQueue<>(ORDER);
    private final SimulationSink sink;
    private final OtlpBatcher batcher;
    private long seq;

    public EmissionMerger(SimulationSink sink, OtlpBatcher batcher) {
        this.sink = sink;
        this.batcher = batcher;
    }

    public void add(CallEvent call) {
        calls.add(new Pending<>(call.endedAt(), seq++, call));
    }

    public void add(OtlpSpan span) {
        spans.add(new Pending<>(span.end(), seq++, span));
    }

    /** Releases everything that ended at or before {@code time}. */
    public void releaseUpTo(Instant time) {
        while (!calls.isEmpty() && !calls.peek().at().isAfter(time)) {
            sink.call(calls.poll().item());
        }
        while (!spans.isEmpty() && !spans.peek().at().isAfter(time)) {
            batcher.add(spans.poll().item());
        }
        batcher.flushBefore(time);
    }

    public void releaseAll() {
        while (!calls.isEmpty()) {
            sink.call(calls.poll().item());
        }
        while (!spans.isEmpty()) {
            batcher.add(spans.poll().item());
        }
        batcher.flushAll();
    }
}
