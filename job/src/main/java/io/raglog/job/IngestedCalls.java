package io.raglog.job;

import io.raglog.calls.CallClassifier;
import io.raglog.calls.ClassifiedCall;
import io.raglog.flink.JacksonTypeInfo;
import io.raglog.ingest.ClassifyCallsFunction;
import io.raglog.ingest.DecodeCallsFunction;
import io.raglog.ingest.DecodeOtlpFunction;
import io.raglog.ingest.RawMessage;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.DeadLetter;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Calls on their way in, decoded from their wire format and given their stage. What cannot be decoded or classified
 * goes aside as a dead letter; calls to an endpoint no adapter knows go aside unclassified. A missing input (a
 * deployment that reads only proxy calls, or only traces) is {@link #NONE}.
 */
record IngestedCalls(DataStream<ClassifiedCall> classified, DataStream<CallEvent> unclassified,
        DataStream<DeadLetter> deadLetters) {

    static final IngestedCalls NONE = new IngestedCalls(null, null, null);

    /** raglog.call/v1 JSON, as the proxy writes it; null for no input. */
    static SingleOutputStreamOperator<CallEvent> decodeProxyCalls(DataStream<RawMessage> messages) {
        return messages == null ? null : messages
                .process(new DecodeCallsFunction(), JacksonTypeInfo.of(CallEvent.class))
                .uid("decode-calls").name("decode raglog.call/v1");
    }

    /** OTLP trace messages (protobuf or JSON) into the same CallEvents the proxy writes; null for no input. */
    static SingleOutputStreamOperator<CallEvent> decodeOtlpSpans(DataStream<RawMessage> messages) {
        return messages == null ? null : messages
                .process(new DecodeOtlpFunction(DecodeOtlpFunction.AUTO), JacksonTypeInfo.of(CallEvent.class))
                .uid("decode-otlp").name("decode OTLP traces");
    }

    /** Classifies right after decoding, in the same chain, with the adapters raglog ships. */
    static IngestedCalls classify(SingleOutputStreamOperator<CallEvent> decoded, String uid) {
        if (decoded == null) {
            return NONE;
        }
        SingleOutputStreamOperator<ClassifiedCall> classified = decoded
                .process(new ClassifyCallsFunction(CallClassifier.withBuiltInAdapters()),
                        JacksonTypeInfo.of(ClassifiedCall.class))
                .uid(uid).name("classify stage");
        return new IngestedCalls(classified, classified.getSideOutput(ClassifyCallsFunction.UNCLASSIFIED),
                decoded.getSideOutput(DecodeCallsFunction.DEAD_LETTERS)
                        .union(classified.getSideOutput(DecodeCallsFunction.DEAD_LETTERS)));
    }

    /** Both inputs' calls as one. */
    IngestedCalls and(IngestedCalls other) {
        return new IngestedCalls(union(classified, other.classified), union(unclassified, other.unclassified),
                union(deadLetters, other.deadLetters));
    }

    private static <T> DataStream<T> union(DataStream<T> a, DataStream<T> b) {
        return a == null ? b : b == null ? a : a.union(b);
    }
}
