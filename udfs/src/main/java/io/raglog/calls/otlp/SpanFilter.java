package io.raglog.calls.otlp;

import io.raglog.calls.ApiAdapter;
import io.raglog.calls.adapters.otlp.OtlpAdapters;
import io.raglog.schemas.CallEvent;
import java.io.Serializable;
import java.util.List;

/**
 * Decides which spans become calls. A RAG trace holds many spans that are not a call to a stage: the framework's
 * CHAIN / AGENT / TOOL spans, the HTTP server span of the request, the application's {@code rag.query} root. Turned
 * into calls they would reach the classifier as unknown endpoints and, with an LLM judge, cost a mapping request per
 * span name; so the decoder drops them and counts them instead.
 *
 * <p>A span is kept exactly when one of the span adapters accepts it: the same test the classifier applies later, so
 * the decoder can never keep a span that no adapter reads, nor drop one that an adapter would have read.
 */
public final class SpanFilter implements Serializable {

    private static final long serialVersionUID = 1L;

    private final List<ApiAdapter> adapters;

    public SpanFilter(List<ApiAdapter> adapters) {
        this.adapters = List.copyOf(adapters);
    }

    /** Keeps the spans that raglog's built-in span adapters read. */
    public static SpanFilter stagesOnly() {
        return new SpanFilter(OtlpAdapters.all());
    }

    /** @param spanCall a call made from a span by {@link SpanToCall} */
    public boolean isStage(CallEvent spanCall) {
        for (ApiAdapter adapter : adapters) {
            if (adapter.accepts(spanCall)) {
                return true;
            }
        }
        return false;
    }
}
