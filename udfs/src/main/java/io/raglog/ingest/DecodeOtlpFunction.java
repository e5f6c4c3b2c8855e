package io.raglog.ingest;

import io.raglog.calls.otlp.OtlpDecoder;
import io.raglog.calls.otlp.OtlpDecoding;
import io.raglog.calls.otlp.SpanFilter;
import io.raglog.schemas.CallEvent;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.metrics.Counter;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * One OTLP {@code ExportTraceServiceRequest} message in, a CallEvent per stage span out. A message that cannot be
 * decoded goes whole to the dead-letter side output; spans that are not stages (CHAIN roots, HTTP server spans) are
 * counted.
 */
public class DecodeOtlpFunction extends ProcessFunction<RawMessage, CallEvent> {

    private static final long serialVersionUID = 1L;

    /** {@code auto} tells the two encodings apart per message: OTLP/JSON is an object, protobuf starts with a tag. */
    public static final String AUTO = "auto";

    private final String encoding;

    private transient OtlpDecoder json;
    private transient OtlpDecoder proto;
    private transient Counter spans;
    private transient Counter notStages;
    private transient Counter rejected;

    public DecodeOtlpFunction(String encoding) {
        if (!AUTO.equals(encoding)) {
            OtlpDecoder.forEncoding(encoding, SpanFilter.stagesOnly()); // fail at configuration time, not per message
        }
        this.encoding = encoding;
    }

    @Override
    public void open(OpenContext openContext) {
        SpanFilter filter = SpanFilter.stagesOnly();
        json = OtlpDecoder.forEncoding(OtlpDecoder.OTLP_JSON, filter);
        proto = OtlpDecoder.forEncoding(OtlpDecoder.OTLP_PROTO, filter);
        var group = getRuntimeContext().getMetricGroup().addGroup("raglog").addGroup("otlp");
        spans = group.counter("spans");
        notStages = group.counter("spans_not_a_stage");
        rejected = group.counter("messages_dead_lettered");
    }

    @Override
    public void processElement(RawMessage message, Context ctx, Collector<CallEvent> out) {
        OtlpDecoding result = decoderFor(message.payload()).decode(message.payload());
        if (result.failed()) {
            rejected.inc();
            ctx.output(DecodeCallsFunction.DEAD_LETTERS, DeadLetters.of(message, result.error()));
            return;
        }
        spans.inc(result.spans());
        notStages.inc(result.droppedNotStage());
        result.calls().forEach(out::collect);
    }

    private OtlpDecoder decoderFor(byte[] payload) {
        if (OtlpDecoder.OTLP_JSON.equals(encoding)) {
            return json;
        }
        if (OtlpDecoder.OTLP_PROTO.equals(encoding)) {
            return proto;
        }
        for (byte b : payload) {
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return b == '{' ? json : proto;
            }
        }
        return proto;
    }
}
