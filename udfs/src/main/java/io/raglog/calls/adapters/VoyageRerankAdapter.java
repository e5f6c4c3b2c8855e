package io.raglog.calls.adapters;

import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.schemas.CallEvent;
import java.io.Serializable;

/**
 * Voyage {@code /v1/rerank}: {@code query}, {@code documents}, {@code top_k}; reply
 * {@code data: [{index, relevance_score}]}. Told from Cohere by its host, by {@code top_k}, or by the reply's
 * {@code data} list, since the path is the same.
 */
public final class VoyageRerankAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "voyage.rerank";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        if (!e.isPost() || !e.pathEndsWith("/rerank")) {
            return false;
        }
        return e.hostEndsWith("voyageai.com") || Bodies.request(call).has("top_k")
                || Bodies.response(call).path("data").isArray();
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        return RerankReading.read(name(), call, "documents", "top_k", "data", "relevance_score");
    }
}
