package io.raglog.calls.adapters;

import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.schemas.CallEvent;
import java.io.Serializable;

/**
 * Mixedbread {@code POST /v1/reranking} ({@code api.mixedbread.com}, formerly {@code api.mixedbread.ai}):
 * {@code query}, {@code input} (strings, or objects whose text is in the fields {@code rank_fields} names),
 * {@code top_k}; reply {@code data: [{index, score, input}]}. Its path is its own; its embeddings are
 * OpenAI-compatible and read as OpenAI's.
 */
public final class MixedbreadRerankAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "mixedbread.rerank";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.isPost() && e.pathEndsWith("/reranking");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        return RerankReading.readByRankFields(name(), call, "input", "top_k", "data", "score");
    }
}
