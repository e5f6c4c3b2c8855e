package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.calls.RerankDetail;
import io.raglog.schemas.CallEvent;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Vertex AI's ranking API ({@code POST …/rankingConfigs/default_ranking_config:rank} on Discovery Engine, as its
 * clients send it over REST, LangChain's {@code VertexAIRank} among them): the {@code query}, the documents as
 * {@code records} of {@code id}, {@code title} and {@code content}, the cut-off {@code topN} and a
 * {@code semantic-ranker-…} {@code model}; reply {@code records: [{id, score}]}, best first, each naming the record
 * it ranks by the id it was sent with (title and content come back too unless {@code ignoreRecordDetailsInResponse},
 * so they are not what is read). A record's passage is its content, the text the pipeline hands on; one sent with a
 * title alone was ranked on its title. A reply that kept no record has no {@code records} at all (proto3 JSON leaves
 * an empty list out).
 */
public final class VertexRankAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "vertex.rank";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.isPost() && e.pathEndsWith(":rank") && e.segmentAfter("rankingConfigs") != null;
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        String query = Bodies.requireText(request, "query");
        JsonNode records = Bodies.requireArray(request, "records");
        List<String> documents = new ArrayList<>(records.size());
        Map<String, Integer> indexById = new HashMap<>();
        for (int i = 0; i < records.size(); i++) {
            JsonNode record = records.get(i);
            String content = Bodies.text(record, "content");
            String text = content != null && !content.isBlank() ? content : Bodies.text(record, "title");
            if (text == null) {
                throw new AdapterException("'records[" + i + "]' has neither content nor a title");
            }
            documents.add(text);
            JsonNode id = record.path("id");
            if (id.isTextual() || id.isNumber()) {
                indexById.putIfAbsent(id.asText(), i);
            }
        }
        Integer top = Bodies.integer(request, "topN");
        String model = Bodies.label(request, "model");
        if (!Bodies.succeeded(call)) {
            return new RerankDetail(name(), model, query, List.copyOf(documents), List.of(), top);
        }
        JsonNode ranked = Bodies.array(Bodies.responseJson(call), "records");
        return new RerankDetail(name(), model, query, List.copyOf(documents), ranked == null ? List.of()
                : RerankReading.resultsById(ranked, "score", indexById, documents.size(), "records"), top);
    }
}
