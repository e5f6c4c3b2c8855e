package io.raglog.simulator.output;

import io.raglog.simulator.wire.OtlpJson;
import io.raglog.simulator.wire.OtlpSpan;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The SDK's batch span processor: finished spans of a service are exported together once the batch is old enough or
 * full, so one export request holds spans of several traces and one trace may span several requests.
 */
public final class OtlpBatcher {

    static final Duration SCHEDULE_DELAY = Duration.ofSeconds(1);
    static final int MAX_BATCH = 64;

    private final SimulationSink sink;
    private final String scopeName;
    private final String scopeVersion;
    private final Map<String, List<OtlpSpan>> open = new TreeMap<>();
    private long requests;
    private long spans;

    public OtlpBatcher(SimulationSink sink, String scopeName, String scopeVersion) {
        this.sink = sink;
        this.scopeName = scopeName;
        this.scopeVersion = scopeVersion;
    }

    public void add(OtlpSpan span) {
        List<OtlpSpan> batch = open.computeIfAbsent(span.serviceName(), k -> new ArrayList<>());
        if (!batch.isEmpty() && !span.end().isBefore(batch.get(0).end().plus(SCHEDULE_DELAY))) {
            export(span.serviceName(), batch);
        }
        batch.add(span);
        if (batch.size() >= MAX_BATCH) {
            export(span.serviceName(), batch);
        }
    }

    /** Exports the batches whose delay has passed by {@code time}. */
    public void flushBefore(Instant time) {
        for (Map.Entry<String, List<OtlpSpan>> e : open.entrySet()) {
            List<OtlpSpan> batch = e.getValue();
            if (!batch.isEmpty() && !time.isBefore(batch.get(0).end().plus(SCHEDULE_DELAY))) {
                export(e.getKey(), batch);
            }
        }
    }

    public void flushAll() {
        for (Map.Entry<String, List<OtlpSpan>> e : open.entrySet()) {
            if (!e.getValue().isEmpty()) {
                export(e.getKey(), e.getValue());
            }
        }
    }

    private void export(String service, List<OtlpSpan> batch) {
        sink.traces(OtlpJson.exportRequest(service, scopeName, scopeVersion, List.copyOf(batch)));
        requests++;
        spans += batch.size();
        batch.clear();
    }

    public long requests() {
        return requests;
    }

    public long spans() {
        return spans;
    }
}
