package io.raglog.calls.adapters.otlp;

import io.raglog.calls.ApiAdapter;
import java.util.List;

/**
 * The adapters for calls made from OTLP spans ({@code method: SPAN}), in the order they are tried: a span that
 * carries both conventions is read as OpenInference, whose span kinds are the more specific.
 */
public final class OtlpAdapters {

    private OtlpAdapters() {}

    public static List<ApiAdapter> all() {
        return List.of(new OpenInferenceAdapter(), new GenAiSpanAdapter());
    }
}
