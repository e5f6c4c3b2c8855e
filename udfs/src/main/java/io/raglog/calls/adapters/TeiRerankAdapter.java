package io.raglog.calls.adapters;

import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.schemas.CallEvent;
import java.io.Serializable;

/**
 * Hugging Face Text Embeddings Inference {@code /rerank} serving a cross-encoder: {@code {query, texts}} answered
 * by a bare array of {@code {index, score}}, best first. TEI returns every text scored; it has no cut-off.
 */
public final class TeiRerankAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "tei.rerank";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.isPost() && e.pathEndsWith("/rerank") && Bodies.request(call).has("texts");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        return RerankReading.read(name(), call, "texts", "top_n", null, "score");
    }
}
