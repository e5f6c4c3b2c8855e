package io.raglog.simulator.output;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Label;

/** Where a simulation's output goes: files for training and tests, Kafka for benchmarks. */
public interface SimulationSink extends AutoCloseable {

    /** One proxy-captured call, in the order the proxy would have finished capturing them. */
    void call(CallEvent call);

    /** One OTLP/JSON ExportTraceServiceRequest. */
    void traces(ObjectNode exportTraceServiceRequest);

    void label(Label label);

    /** The run's counts, once at the end. */
    default void summary(ObjectNode summary) {}

    @Override
    void close();
}
