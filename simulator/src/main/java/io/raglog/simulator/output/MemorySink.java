package io.raglog.simulator.output;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Label;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Keeps a simulation's output in memory, in the order it came: for tests that feed the calls to raglog directly. */
public final class MemorySink implements SimulationSink {

    private final List<CallEvent> calls = new ArrayList<>();
    private final List<ObjectNode> traces = new ArrayList<>();
    private final List<Label> labels = new ArrayList<>();

    @Override
    public void call(CallEvent call) {
        calls.add(call);
    }

    @Override
    public void traces(ObjectNode exportTraceServiceRequest) {
        traces.add(exportTraceServiceRequest);
    }

    @Override
    public void label(Label label) {
        labels.add(label);
    }

    @Override
    public void close() {}

    public List<CallEvent> calls() {
        return Collections.unmodifiableList(calls);
    }

    public List<ObjectNode> traces() {
        return Collections.unmodifiableList(traces);
    }

    public List<Label> labels() {
        return Collections.unmodifiableList(labels);
    }
}
