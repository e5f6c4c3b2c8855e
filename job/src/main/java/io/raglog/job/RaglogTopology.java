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
 * calls ─ decode ─ classify ─┐                  ┌─────────────────────────────┐
 * otlp  ─ decode ─ classify ─┴─ unknown endpoints (LLM mapping) ─┴─ keyBy(pipeline, run hint) ─ assemble ─▶ runs
 *          └──────── bad input, unreadable bodies, late calls ─────────────────────────────────────▶ dead letters
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
        // Each input is classified right after its decoding, in the same chain: a call crosses no network edge
        // (and is not written out and read back) before it has its stage.
        DataStream<ClassifiedCall> classified = null;
        DataStream<CallEvent> unclassified = null;
        DataStream<DeadLetter> deadLetters = null;
        if (calls != null) {
            SingleOutputStreamOperator<CallEvent> decodedCalls = calls
                    .process(new DecodeCallsFunction(), JacksonTypeInfo.of(CallEvent.class))
                    .uid("decode-calls").name("decode raglog.call/v1");
            SingleOutputStreamOperator<ClassifiedCall> classifiedCalls = classify(decodedCalls, "classify-calls");
            classified = classifiedCalls;
            unclassified = classifiedCalls.getSideOutput(ClassifyCallsFunction.UNCLASSIFIED);
            deadLetters = decodedCalls.getSideOutput(DecodeCallsFunction.DEAD_LETTERS)
                    .union(classifiedCalls.getSideOutput(DecodeCallsFunction.DEAD_LETTERS));
        }
        if (otlp != null) {
            SingleOutputStreamOperator<CallEvent> decodedSpans = OtlpIngest.decode(otlp);
            SingleOutputStreamOperator<ClassifiedCall> classifiedSpans = classify(decodedSpans, "classify-spans");
            DataStream<DeadLetter> badTraces = decodedSpans.getSideOutput(DecodeCallsFunction.DEAD_LETTERS)
                    .union(classifiedSpans.getSideOutput(DecodeCallsFunction.DEAD_LETTERS));
            DataStream<CallEvent> unclassifiedSpans = classifiedSpans.getSideOutput(ClassifyCallsFunction.UNCLASSIFIED);
            classified = classified == null ? classifiedSpans : classified.union(classifiedSpans);
            unclassified = unclassified == null ? unclassifiedSpans : unclassified.union(unclassifiedSpans);
            deadLetters = deadLetters == null ? badTraces : deadLetters.union(badTraces);
        }

        DataStream<ClassifiedCall> stageCalls = classified;
        if (settings.endpointMapping().provider() != ProviderKind.OFFLINE) {
            stageCalls = stageCalls.union(UnknownEndpoints.apply(unclassified, settings.endpointMapping()));
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
        deadLetters = deadLetters.union(late);
        return new Streams(runs, deadLetters);
    }

    private static SingleOutputStreamOperator<ClassifiedCall> classify(DataStream<CallEvent> decoded, String uid) {
        return decoded
                .process(new ClassifyCallsFunction(CallClassifier.withBuiltInAdapters()),
                        JacksonTypeInfo.of(ClassifiedCall.class))
                .uid(uid).name("classify stage");
    }
}
