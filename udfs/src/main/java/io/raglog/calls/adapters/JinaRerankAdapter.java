package io.raglog.calls.adapters;

import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.schemas.CallEvent;
import java.io.Serializable;

/**
 * Jina {@code /v1/rerank}: Cohere's shape ({@code query}, {@code documents}, {@code top_n}) with the reply's
 * {@code results: [{index, relevance_score, document: {text}}]}. Told from Cohere by its host or its
 * {@code jina-} model names, since the path is the same.
 */
public final class JinaRerankAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "jina.rerank";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        if (!e.isPost() || !e.pathEndsWith("/rerank")) {
            return false;
        }
        String model = Bodies.label(Bodies.request(call), "model");
        return e.hostEndsWith("jina.ai") || (model != null && model.startsWith("jina-"));
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        return RerankReading.read(name(), call, "documents", "top_n", "results", "relevance_score");
    }
}
