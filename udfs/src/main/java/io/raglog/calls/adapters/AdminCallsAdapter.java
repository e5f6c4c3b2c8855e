package io.raglog.calls.adapters;

import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.calls.NotARunCall;
import io.raglog.schemas.CallEvent;
import java.io.Serializable;
import java.util.List;
import java.util.Set;

/**
 * Calls every model server and store answers that are not part of answering a question: health and readiness
 * probes, model listings ({@code GET /v1/models}), version and info pages, Ollama's model management, tokenizer
 * endpoints. Tried last, after the vendor adapters have claimed their own admin paths.
 */
public final class AdminCallsAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    private static final Set<String> PROBES = Set.of("health", "healthz", "readyz", "livez", "ready", "live", "ping",
            "heartbeat", "version", "metrics", "info");

    private static final List<String> MODEL_MANAGEMENT = List.of("/api/tags", "/api/ps", "/api/show", "/api/pull",
            "/api/push", "/api/create", "/api/copy", "/api/delete", "/api/version");

    private static final List<String> TOKENIZERS = List.of("/tokenize", "/detokenize", "/decode");

    @Override
    public String name() {
        return "admin";
    }

    @Override
    public boolean accepts(CallEvent call) {
        return reason(Endpoint.of(call)) != null;
    }

    @Override
    public CallDetail read(CallEvent call) {
        return new NotARunCall(name(), reason(Endpoint.of(call)));
    }

    private static String reason(Endpoint e) {
        List<String> segments = e.segments();
        String last = segments.isEmpty() ? "" : segments.get(segments.size() - 1).toLowerCase(java.util.Locale.ROOT);
        for (String path : MODEL_MANAGEMENT) {
            if (e.pathEndsWith(path)) {
                return "model management (" + e.method() + " " + e.path() + ")";
            }
        }
        for (String path : TOKENIZERS) {
            if (e.isPost() && e.pathEndsWith(path)) {
                return "tokenizer call (" + e.path() + ")";
            }
        }
        if (!e.isGet()) {
            return null;
        }
        if (PROBES.contains(last)) {
            return "health or version probe (" + e.path() + ")";
        }
        if (last.equals("models") || (segments.size() >= 2
                && segments.get(segments.size() - 2).equalsIgnoreCase("models"))) {
            return "model listing (" + e.path() + ")";
        }
        return null;
    }
}
