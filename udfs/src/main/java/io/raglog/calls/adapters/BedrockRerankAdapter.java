package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.calls.RerankDetail;
import io.raglog.schemas.CallEvent;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Rerank models on Amazon Bedrock. The agent runtime's {@code POST /rerank} (LangChain's {@code BedrockRerank}, the
 * knowledge bases' own reranking): the query in {@code queries[0].textQuery}, each document an inline
 * {@code sources[]} entry (text, or JSON read for its passage text), the model's ARN and the cut-off in
 * {@code rerankingConfiguration.bedrockRerankingConfiguration}; reply {@code results: [{index, relevanceScore}]}.
 * Or a rerank model invoked with Cohere's body ({@code POST /model/cohere.rerank-v3-5:0/invoke}: query, documents,
 * {@code top_n}; reply {@code results: [{index, relevance_score}]}), the model in the path.
 */
public final class BedrockRerankAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "bedrock.rerank";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        if (!e.isPost()) {
            return false;
        }
        // the path first: the body is read only for the calls it could be (a text body is parsed to be read)
        if (e.pathEndsWith("/rerank")) {
            JsonNode request = Bodies.request(call);
            return request.has("queries") && request.has("sources");
        }
        if (!e.pathEndsWith("/invoke") || e.bedrockModel() == null) {
            return false;
        }
        JsonNode request = Bodies.request(call);
        return request.has("query") && request.has("documents");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        Endpoint e = Endpoint.of(call);
        if (!e.pathEndsWith("/rerank")) {
            RerankDetail cohere = RerankReading.read(name(), call, "documents", "top_n", "results", "relevance_score");
            return new RerankDetail(name(), e.bedrockModel(), cohere.query(), cohere.documents(), cohere.results(),
                    cohere.topN());
        }
        JsonNode request = Bodies.requestObject(call);
        JsonNode queries = Bodies.requireArray(request, "queries");
        JsonNode query = queries.path(0).path("textQuery").path("text");
        if (!query.isTextual()) {
            throw new AdapterException("'queries[0].textQuery.text' is " + Bodies.describe(query)
                    + ", expected the query");
        }
        List<String> documents = sources(Bodies.requireArray(request, "sources"));
        JsonNode config = request.path("rerankingConfiguration").path("bedrockRerankingConfiguration");
        Integer top = Bodies.integer(config, "numberOfResults");
        String arn = Bodies.label(config.path("modelConfiguration"), "modelArn");
        String model = Endpoint.bedrockModelOf(arn);
        if (!Bodies.succeeded(call)) {
            return new RerankDetail(name(), model, query.textValue(), documents, List.of(), top);
        }
        JsonNode results = Bodies.requireArray(Bodies.responseJson(call), "results");
        return new RerankDetail(name(), model, query.textValue(), documents,
                RerankReading.results(results, "relevanceScore", documents.size(), "results"), top);
    }

    private static List<String> sources(JsonNode sources) throws AdapterException {
        List<String> out = new ArrayList<>(sources.size());
        for (int i = 0; i < sources.size(); i++) {
            JsonNode inline = sources.get(i).path("inlineDocumentSource");
            JsonNode text = inline.path("textDocument").path("text");
            if (text.isTextual()) {
                out.add(text.textValue());
            } else if (inline.path("jsonDocument").isObject()) {
                String passage = PassageText.find(inline.get("jsonDocument"));
                out.add(passage != null ? passage : inline.get("jsonDocument").toString());
            } else {
                throw new AdapterException("'sources[" + i + "]' holds no inline text or JSON document");
            }
        }
        return List.copyOf(out);
    }
}
