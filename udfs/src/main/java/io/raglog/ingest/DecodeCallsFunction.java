package io.raglog.ingest;

import io.raglog.flink.JacksonTypeInfo;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.DeadLetter;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/** raglog.call/v1 bytes in, CallEvents out; anything else to the dead-letter side output with its reason. */
public class DecodeCallsFunction extends ProcessFunction<RawMessage, CallEvent> {

    private static final long serialVersionUID = 1L;

    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("dead-letters", JacksonTypeInfo.of(DeadLetter.class));

    private transient Counter decoded;
    private transient Counter rejected;

    @Override
    public void open(OpenContext openContext) {
        var group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("ingest");
        decoded = group.counter("calls_decoded");
        rejected = group.counter("calls_dead_lettered");
    }

    @Override
    public void processElement(RawMessage message, Context ctx, Collector<CallEvent> out) {
        CallEventDecoder.Decoded result = CallEventDecoder.decode(message.payload());
        if (result.ok()) {
            decoded.inc();
            out.collect(result.event());
        } else {
            rejected.inc();
            ctx.output(DEAD_LETTERS, DeadLetters.of(message, result.reason()));
        }
    }
}
