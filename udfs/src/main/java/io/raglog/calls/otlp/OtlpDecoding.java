package io.raglog.calls.otlp;

import io.raglog.schemas.CallEvent;
import java.util.ArrayList;
import java.util.List;

/**
 * What one Kafka message of {@code raglog.otlp} gave: the stage calls, the spans it held and how many were dropped
 * as not being stages, or, when the message could not be decoded at all, why (for the dead-letter topic).
 *
 * @param calls one call per stage span, in the message's span order; empty when {@link #failed()}
 * @param spans the spans the message held
 * @param droppedNotStage spans no adapter recognises as a stage (framework glue, HTTP server spans, roots)
 * @param error why the message is unreadable, prefixed by its encoding; null when it was read
 */
public record OtlpDecoding(List<CallEvent> calls, int spans, int droppedNotStage, String error) {

    public static OtlpDecoding failure(String error) {
        return new OtlpDecoding(List.of(), 0, 0, error);
    }

    static OtlpDecoding fromSpans(List<OtlpSpan> spans, SpanFilter filter) {
        List<CallEvent> calls = new ArrayList<>();
        for (OtlpSpan span : spans) {
            CallEvent call = SpanToCall.toCall(span);
            if (filter.isStage(call)) {
                calls.add(call);
            }
        }
        return new OtlpDecoding(List.copyOf(calls), spans.size(), spans.size() - calls.size(), null);
    }

    public boolean failed() {
        return error != null;
    }
}
