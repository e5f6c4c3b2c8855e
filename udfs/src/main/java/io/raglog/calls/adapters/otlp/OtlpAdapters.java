package io.raglog.calls.adapters.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.ApiAdapter;
import io.raglog.schemas.CallEvent;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The adapters for calls made from OTLP spans ({@code method: SPAN}), in the order they are tried.
 *
 * <p>The semantic conventions come first: a span that carries both conventions is read as OpenInference, whose span
 * kinds are the more specific. The SDKs that trace under attribute names of their own (Langfuse, MLflow) come after
 * them, and leave alone any span that carries a convention's kind ({@link #isSdkStageSpan}): some of their
 * integrations export OpenInference or GenAI spans, and such a span must read as it did before the SDK adapters,
 * whatever else it carries. Langfuse and MLflow each write only their own prefix, so their order between them is
 * arbitrary.
 */
public final class OtlpAdapters {

    private OtlpAdapters() {}

    public static List<ApiAdapter> all() {
        return List.of(new OpenInferenceAdapter(), new GenAiSpanAdapter(), new LangfuseSpanAdapter(),
                new MlflowSpanAdapter());
    }

    /**
     * Whether an SDK's span adapter takes a call: a span call whose type, as the SDK names it, is one of the SDK's
     * stage types, on a span that does not also name its operation by a semantic convention (OpenInference's span
     * kind, the GenAI operation): that convention's adapter reads such a span, or nothing does.
     *
     * @param typeOf the span's type from its attributes, null when it has none; cheap, as every span is offered
     */
    static boolean isSdkStageSpan(CallEvent call, Function<JsonNode, String> typeOf, Set<String> stageTypes) {
        if (!SpanCall.isSpanCall(call)) {
            return false;
        }
        JsonNode attributes = call.request().body();
        String type = typeOf.apply(attributes);
        return type != null && stageTypes.contains(type) && !attributes.has(OpenInferenceAdapter.SPAN_KIND)
                && !attributes.has(GenAiSpanAdapter.OPERATION);
    }
}
