package io.raglog.calls.adapters;

import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.schemas.CallEvent;
import java.io.Serializable;
import java.util.Set;

/**
 * Pinecone Inference {@code POST /rerank} on {@code api.pinecone.io}: a hosted model, {@code query}, {@code documents}
 * (strings, or objects whose text is in the fields {@code rank_fields} names, {@code text} by default),
 * {@code top_n}; reply {@code data: [{index, score, document}]}, {@code usage.rerank_units}. Tried before Voyage's
 * adapter, which takes any {@code /rerank} answered with a {@code data} list and would look for Voyage's
 * {@code relevance_score} in it. Behind a proxy, told apart by the models only Pinecone hosts under these names, or by
 * the reply's {@code rerank_units}.
 */
public final class PineconeRerankAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    /** Pinecone's names for its hosted rerankers: Cohere's and BAAI's own are {@code rerank-v3.5}, BAAI/…. */
    private static final Set<String> HOSTED_MODELS = Set.of("bge-reranker-v2-m3", "cohere-rerank-3.5",
            "pinecone-rerank-v0");

    @Override
    public String name() {
        return "pinecone.rerank";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        if (!e.isPost() || !e.pathEndsWith("/rerank")) {
            return false;
        }
        if (e.hostEndsWith(".pinecone.io")) {
            return true;
        }
        String model = Bodies.label(Bodies.request(call), "model");
        return (model != null && HOSTED_MODELS.contains(model))
                || Bodies.response(call).path("usage").has("rerank_units");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        return RerankReading.readByRankFields(name(), call, "documents", "top_n", "data", "score");
    }
}
