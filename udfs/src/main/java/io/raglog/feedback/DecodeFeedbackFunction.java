package io.raglog.feedback;

import io.raglog.flink.JacksonTypeInfo;
import io.raglog.ingest.DeadLetters;
import io.raglog.ingest.RawMessage;
import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.Feedback;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;

/** raglog.feedback/v1 bytes in, Feedback out; anything else to the dead-letter side output with its reason. */
public class DecodeFeedbackFunction extends ProcessFunction<RawMessage, Feedback> {

    private static final long serialVersionUID = 1L;

    public static final OutputTag<DeadLetter> DEAD_LETTERS =
            new OutputTag<>("feedback-dead-letters", JacksonTypeInfo.of(DeadLetter.class));

    private transient Counter decoded;
    private transient Counter rejected;

    @Override
    public void open(OpenContext openContext) {
        var group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("feedback");
        decoded = group.counter("feedback_decoded");
        rejected = group.counter("feedback_dead_lettered");
    }

    @Override
    public void processElement(RawMessage message, Context ctx, Collector<Feedback> out) {
        FeedbackDecoder.Decoded result = FeedbackDecoder.decode(message.payload());
        if (result.ok()) {
            decoded.inc();
            out.collect(result.feedback());
        } else {
            rejected.inc();
            ctx.output(DEAD_LETTERS, DeadLetters.of(message, result.reason()));
        }
    }
}
