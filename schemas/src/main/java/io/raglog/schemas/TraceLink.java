package io.raglog.schemas;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Where a verdict's run sits in the pipeline's own traces, when its calls came in as OTLP spans ({@code trace} in
 * {@code verdict.v2.json}; absent for runs captured by the proxy): so the verdict can be written back onto that trace,
 * each stage's result on the stage's span.
 *
 * @param traceId the run's trace, 32 lower-case hex digits
 * @param spanIds per stage id ({@code retrieve}, ...), the span of the call whose result the stage used, 16 lower-case
 *     hex digits; a present stage without a span (a retrieval reconstructed from the prompt has its generator's) is
 *     missing
 */
public record TraceLink(String traceId, Map<String, String> spanIds) {

    public TraceLink {
        spanIds = spanIds == null ? Map.of() : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(spanIds));
    }

    /** The stage's span, null when the run had none for it. */
    public String spanId(Stage stage) {
        return spanIds.get(stage.id());
    }
}
