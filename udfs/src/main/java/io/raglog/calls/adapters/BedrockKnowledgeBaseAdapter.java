package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.calls.RetrieveDetail;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Passage;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * An Amazon Bedrock knowledge base queried for passages ({@code POST /knowledgebases/{knowledgeBaseId}/retrieve} on
 * the agent runtime, as LangChain's and LlamaIndex's {@code AmazonKnowledgeBasesRetriever} call it): the question in
 * {@code retrievalQuery.text}, which the service embeds itself (no embedding call is seen), the cut-off in
 * {@code retrievalConfiguration.vectorSearchConfiguration.numberOfResults}; reply
 * {@code retrievalResults: [{content.text, score, metadata}]}, best first, each chunk named by the service's
 * {@code x-amz-bedrock-kb-chunk-id}. {@code retrieveAndGenerate}, which retrieves and answers in one call, is read
 * as a generator call ({@link BedrockRetrieveAndGenerateAdapter}).
 */
public final class BedrockKnowledgeBaseAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    private static final String CHUNK_ID = "x-amz-bedrock-kb-chunk-id";

    @Override
    public String name() {
        return "bedrock.knowledge-base";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.isPost() && e.pathEndsWith("/retrieve") && e.segmentAfter("knowledgebases") != null;
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        Endpoint e = Endpoint.of(call);
        JsonNode request = Bodies.requestObject(call);
        String query = Bodies.requireTextAt(request, "retrievalQuery.text", "the query");
        Integer topK = Bodies.integer(request.path("retrievalConfiguration").path("vectorSearchConfiguration"),
                "numberOfResults");
        List<Passage> passages = new ArrayList<>();
        if (Bodies.succeeded(call)) {
            JsonNode results = Bodies.requireArray(Bodies.responseJson(call), "retrievalResults");
            int rank = 1;
            for (JsonNode r : results) {
                String text = Bodies.label(r.path("content"), "text");
                passages.add(new Passage(Passages.id(r.path("metadata").get(CHUNK_ID), text), text,
                        Bodies.number(r, "score"), rank++));
            }
        }
        return new RetrieveDetail(name(), "bedrock-knowledge-base", e.segmentAfter("knowledgebases"),
                query, null, topK, List.copyOf(passages));
    }
}
