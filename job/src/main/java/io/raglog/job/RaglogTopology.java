package io.raglog.job;

import io.raglog.assemble.AssembleRunsFunction;
import io.raglog.calls.CallClassifier;
import io.raglog.calls.ClassifiedCall;
import io.raglog.calls.mapping.UnknownEndpoints;
import io.raglog.llm.ProviderKind;
import io.raglog.flink.JacksonTypeInfo;
import io.raglog.ingest.ClassifyCallsFunction;
import io.raglog.ingest.DeadLetters;
import io.raglog.ingest.DecodeCallsFunction;
import io.raglog.ingest.RawMessage;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.Run;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * The one raglog topology. It takes its inputs as streams and hands its outputs back, so the same wiring runs from
 * Kafka ({@code run}, {@code demo}), from files in batch mode ({@code replay}) and from tests.
 *
 * <pre>
 * calls ─ decode ─┐                  ┌─────────────────────────────┐
 * otlp  ─ decode ─┴─ classify ─ unknown endpoints (LLM mapping) ─┴─ keyBy(pipeline, run hint) ─ assemble ─▶ runs
 *          └──────── bad input, unreadable bodies, late calls ────────────────────────────────────▶ dead letters
 * </pre>
 */
public final class RaglogTopology {

    /** What the topology produces. */
    public record Streams(DataStream<Run> runs, DataStream<DeadLetter> deadLetters) {}

    private RaglogTopology() {}

    /**
     * Inputs carry their event time and watermarks from their sources (Kafka: per partition, from record timestamps;
     * files in batch mode: none needed, every timer fires at the end of the input).
     *
     * @param calls captured calls, or null when the deployment reads only traces
     * @param otlp OTLP trace messages, or null when the deployment reads only proxy calls
     */
    public static Streams build(DataStream<RawMessage> calls, DataStream<RawMessage> otlp, TopologySettings settings) {
        if (calls == null && otlp == null) {
            throw new IllegalArgumentException("the topology needs calls, OTLP traces, or both");
        }
        DataStream<CallEvent> allCalls = null;
        DataStream<DeadLetter> deadLetters = null;
        if (calls != null) {
            SingleOutputStreamOperator<CallEvent> decodedCalls = calls
                    .process(new DecodeCallsFunction(), JacksonTypeInfo.of(CallEvent.class))
                    .uid("decode-calls").name("decode raglog.call/v1");
            allCalls = decodedCalls;
            deadLetters = decodedCalls.getSideOutput(DecodeCallsFunction.DEAD_LETTERS);
        }
        if (otlp != null) {
            SingleOutputStreamOperator<CallEvent> decodedSpans = OtlpIngest.decode(otlp);
            DataStream<DeadLetter> badTraces = decodedSpans.getSideOutput(DecodeCallsFunction.DEAD_LETTERS);
            allCalls = allCalls == null ? decodedSpans : allCalls.union(decodedSpans);
            deadLetters = deadLetters == null ? badTraces : deadLetters.union(badTraces);
        }

        SingleOutputStreamOperator<ClassifiedCall> classified = allCalls
                .process(new ClassifyCallsFunction(CallClassifier.withBuiltInAdapters()),
                        JacksonTypeInfo.of(ClassifiedCall.class))
                .uid("classify-calls").name("classify stage");

        DataStream<ClassifiedCall> stageCalls = classified;
        if (settings.endpointMapping().provider() != ProviderKind.OFFLINE) {
            stageCalls = stageCalls.union(UnknownEndpoints.apply(
                    classified.getSideOutput(ClassifyCallsFunction.UNCLASSIFIED), settings.endpointMapping()));
        }

        SingleOutputStreamOperator<Run> runs = stageCalls
                .keyBy(ClassifiedCall::runKey)
                .process(new AssembleRunsFunction(settings.assembly()), JacksonTypeInfo.of(Run.class))
                .uid("assemble-runs").name("assemble runs");

        DataStream<DeadLetter> late = runs.getSideOutput(AssembleRunsFunction.LATE)
                .map(c -> DeadLetters.ofCall("assembly", c.event(),
                        "late: the call arrived after its run (" + c.event().pipeline() + ", hint "
                                + c.event().runHint() + ") was closed"), JacksonTypeInfo.of(DeadLetter.class))
                .uid("late-calls").name("late calls");
        deadLetters = deadLetters.union(classified.getSideOutput(DecodeCallsFunction.DEAD_LETTERS), late);
        return new Streams(runs, deadLetters);
    }
}
