package io.raglog.job;

import io.raglog.flink.JacksonTypeInfo;
import io.raglog.ingest.DecodeOtlpFunction;
import io.raglog.ingest.RawMessage;
import io.raglog.schemas.CallEvent;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/** OTLP trace messages into the same CallEvent stream the proxy feeds. */
final class OtlpIngest {

    private OtlpIngest() {}

    static SingleOutputStreamOperator<CallEvent> decode(DataStream<RawMessage> otlp) {
        return otlp.process(new DecodeOtlpFunction(DecodeOtlpFunction.AUTO), JacksonTypeInfo.of(CallEvent.class))
                .uid("decode-otlp").name("decode OTLP traces");
    }
}
