package io.raglog.calls.mapping;

import static io.raglog.calls.mapping.MappedSection.from;
import static io.raglog.calls.mapping.MappedSection.required;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.CallDetail;
import io.raglog.calls.RerankDetail;
import io.raglog.calls.RerankDetail.RerankResult;
import io.raglog.calls.adapters.Bodies;
import io.raglog.calls.mapping.BodyPath.Root;
import io.raglog.calls.mapping.MappedValues.Named;
import io.raglog.schemas.CallEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** A rerank endpoint: the query, the documents sent, and (index, score) per result, best first. */
final class RerankSection implements MappedSection {

    private static final long serialVersionUID = 1L;

    private final Named query;
    private final Named documents;
    private final Named documentText;
    private final Named topN;
    private final Named results;
    private final Named resultIndex;
    private final Named resultScore;
    private final Named model;

    RerankSection(FieldMapping.Rerank r) {
        query = from(required(Named.absolute("rerank.query", r.query()), "rerank.query"), Root.REQUEST);
        documents = from(required(Named.absolute("rerank.documents", r.documents()), "rerank.documents"),
                Root.REQUEST);
        documentText = Named.relative("rerank.document_text", r.documentText());
        topN = from(Named.absolute("rerank.top_n", r.topN()), Root.REQUEST);
        results = from(required(Named.absolute("rerank.results", r.results()), "rerank.results"), Root.RESPONSE);
        resultIndex = required(Named.relative("rerank.result_index", r.resultIndex()), "rerank.result_index");
        resultScore = required(Named.relative("rerank.result_score", r.resultScore()), "rerank.result_score");
        model = Named.absolute("rerank.model", r.model());
    }

    @Override
    public List<PathOf> paths() {
        List<PathOf> out = new ArrayList<>(MappedSection.paths(new Named[] {query, documents, topN, results, model},
                results, resultIndex, resultScore));
        out.addAll(MappedSection.paths(new Named[0], documents, documentText));
        return out;
    }

    @Override
    public CallDetail read(CallEvent call, String adapter) throws AdapterException {
        String q = MappedValues.requireText(query.in(call), query);
        List<JsonNode> sent = documents.path().withoutTrailingWildcard().select(call);
        if (sent.isEmpty()) {
            throw new AdapterException(documents.label() + " is missing");
        }
        List<String> docs = new ArrayList<>();
        for (JsonNode d : MappedValues.elements(sent)) {
            String text = MappedValues.elementText(d, documentText);
            docs.add(text != null ? text : d.toString()); // keep a document whole rather than lose its position
        }
        Integer n = topN == null ? null : MappedValues.integer(topN.in(call), topN);
        String modelName = model == null ? null : MappedValues.label(model.in(call));
        if (!Bodies.succeeded(call)) {
            return new RerankDetail(adapter, modelName, q, List.copyOf(docs), List.of(), n);
        }
        List<JsonNode> list = results.path().withoutTrailingWildcard().select(call);
        if (list.isEmpty()) {
            throw new AdapterException(results.label() + " is missing");
        }
        List<RerankResult> ranked = new ArrayList<>();
        Set<Integer> seen = new HashSet<>();
        int i = 0;
        for (JsonNode r : MappedValues.elements(list)) {
            Integer index = MappedValues.integer(resultIndex.in(r), resultIndex);
            Double score = MappedValues.number(resultScore.in(r), resultScore);
            if (index == null || score == null) {
                throw new AdapterException(results.label() + "[" + i + "] lacks " + resultIndex.label() + " or "
                        + resultScore.label());
            }
            if (index < 0 || index >= docs.size()) {
                throw new AdapterException(resultIndex.label() + " of result " + i + " is " + index + ", outside the "
                        + docs.size() + " documents sent");
            }
            if (!seen.add(index)) {
                throw new AdapterException(resultIndex.label() + " names document " + index + " twice");
            }
            ranked.add(new RerankResult(index, score));
            i++;
        }
        // Best first, as every reranker's detail is; a service that answers in document order is sorted here.
        ranked.sort(Comparator.comparingDouble(RerankResult::score).reversed());
        return new RerankDetail(adapter, modelName, q, List.copyOf(docs), List.copyOf(ranked), n);
    }
}
