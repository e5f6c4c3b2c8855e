package io.raglog.job;

import io.raglog.flink.JacksonTypeInfo;
import io.raglog.ingest.DecodeCallsFunction;
import io.raglog.ingest.DeadLetters;
import io.raglog.ingest.RawMessage;
import io.raglog.schemas.CallEvent;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/** Placeholder wiring for OTLP trace messages until the OTLP decoder lands: every message is dead-lettered. */
final class OtlpIngest {

    private OtlpIngest() {}

    static SingleOutputStreamOperator<CallEvent> decode(DataStream<RawMessage> otlp) {
        return otlp.process(new ProcessFunction<RawMessage, CallEvent>() {
            @Override
            public void processElement(RawMessage m, Context ctx, Collector<CallEvent> out) {
                ctx.output(DecodeCallsFunction.DEAD_LETTERS, DeadLetters.of(m, "OTLP decoding is not available"));
            }
        }, JacksonTypeInfo.of(CallEvent.class)).uid("decode-otlp").name("decode OTLP traces");
    }

}
