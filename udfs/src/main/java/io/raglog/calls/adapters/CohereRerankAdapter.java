package io.raglog.calls.adapters;

import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.schemas.CallEvent;
import java.io.Serializable;

/**
 * Cohere {@code /v1/rerank} and {@code /v2/rerank}, and the servers that copy it (LiteLLM's {@code /rerank},
 * Infinity): {@code query}, {@code documents} (strings, or v1 objects with {@code text}), {@code top_n}; reply
 * {@code results: [{index, relevance_score}]}, v1 echoing {@code document} when asked. Tried after the Jina and
 * Voyage adapters, which share the path.
 */
public final class CohereRerankAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "cohere.rerank";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.isPost() && e.pathEndsWith("/rerank") && Bodies.request(call).has("documents");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        return RerankReading.read(name(), call, "documents", "top_n", "results", "relevance_score");
    }
}
