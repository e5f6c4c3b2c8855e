package io.raglog.calls.mapping;

import static io.raglog.calls.mapping.MappedSection.from;
import static io.raglog.calls.mapping.MappedSection.required;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.CallDetail;
import io.raglog.calls.RetrieveDetail;
import io.raglog.calls.adapters.Bodies;
import io.raglog.calls.adapters.Passages;
import io.raglog.calls.mapping.BodyPath.Root;
import io.raglog.calls.mapping.MappedValues.Named;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Passage;
import java.util.ArrayList;
import java.util.List;

/** A search endpoint: the query (text, vector or both) and the hits, rank 1 first, in the service's order. */
final class RetrieveSection implements MappedSection {

    private static final long serialVersionUID = 1L;

    private final Named queryText;
    private final Named queryVector;
    private final Named topK;
    private final Named results;
    private final Named resultId;
    private final Named resultText;
    private final Named resultScore;
    /** The host serves as the store's name: an in-house service has no product name to report. */
    private final String store;

    RetrieveSection(FieldMapping.Retrieve r, String store) {
        queryText = from(Named.absolute("retrieve.query_text", r.queryText()), Root.REQUEST);
        queryVector = from(Named.absolute("retrieve.query_vector", r.queryVector()), Root.REQUEST);
        topK = from(Named.absolute("retrieve.top_k", r.topK()), Root.REQUEST);
        results = from(required(Named.absolute("retrieve.results", r.results()), "retrieve.results"), Root.RESPONSE);
        resultId = Named.relative("retrieve.result_id", r.resultId());
        resultText = required(Named.relative("retrieve.result_text", r.resultText()), "retrieve.result_text");
        resultScore = Named.relative("retrieve.result_score", r.resultScore());
        if (queryText == null && queryVector == null) {
            throw new IllegalArgumentException("retrieve needs query_text, query_vector or both");
        }
        this.store = store;
    }

    @Override
    public List<PathOf> paths() {
        return MappedSection.paths(new Named[] {queryText, queryVector, topK, results}, results, resultId, resultText,
                resultScore);
    }

    @Override
    public CallDetail read(CallEvent call, String adapter) throws AdapterException {
        String text = queryText == null ? null : MappedValues.text(queryText.in(call), queryText);
        float[] vector = null;
        if (queryVector != null) {
            JsonNode v = MappedValues.single(queryVector.in(call), queryVector);
            vector = v == null ? null : MappedValues.vector(v, queryVector);
        }
        if (text == null && vector == null) {
            throw new AdapterException("the request has neither "
                    + (queryText == null ? queryVector.label() : queryText.label())
                    + (queryText != null && queryVector != null ? " nor " + queryVector.label() : ""));
        }
        Integer k = topK == null ? null : MappedValues.integer(topK.in(call), topK);
        List<Passage> passages = new ArrayList<>();
        if (Bodies.succeeded(call)) {
            List<JsonNode> list = results.path().withoutTrailingWildcard().select(call);
            if (list.isEmpty()) {
                throw new AdapterException(results.label() + " is missing");
            }
            int rank = 1;
            int withText = 0;
            for (JsonNode hit : MappedValues.elements(list)) {
                String passage = MappedValues.text(resultText.in(hit), resultText);
                JsonNode id = resultId == null ? null : MappedValues.single(resultId.in(hit), resultId);
                Double score = resultScore == null ? null : MappedValues.number(resultScore.in(hit), resultScore);
                passages.add(new Passage(Passages.id(id, passage), passage, score, rank++));
                withText += passage == null ? 0 : 1;
            }
            // One hit without text is a document the service keeps no text for; none with text is a changed shape.
            if (!passages.isEmpty() && withText == 0) {
                throw new AdapterException(resultText.label() + " is missing in all " + passages.size() + " results");
            }
        }
        return new RetrieveDetail(adapter, store, null, text, vector, k, List.copyOf(passages));
    }
}
