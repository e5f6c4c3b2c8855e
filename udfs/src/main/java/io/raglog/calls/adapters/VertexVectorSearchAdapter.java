package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.RetrieveDetail;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Passage;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Google's Vertex AI Vector Search, on a deployed index's public endpoint ({@code {id}.{region}-{project}
 * .vdb.vertexai.goog}) or the regional API. {@code …/indexEndpoints/{id}:findNeighbors} is a retrieval whose query
 * is a vector ({@code queries[0].datapoint.feature_vector}, {@code neighbor_count} the top k) and whose neighbors
 * come back as datapoint ids with a distance and no text (the pipeline keeps its passages elsewhere and looks them up
 * by id): the run links it to the embedding call by the vector, as it does Pinecone's id-only matches. A datapoint's
 * {@code embedding_metadata}, when the index keeps the passage there, gives its text. {@code :readIndexDatapoints}
 * looks datapoints up by id; {@code indexes/{id}:upsertDatapoints} and {@code :removeDatapoints} build the index.
 * Field names come in snake or camel case, as proto3's JSON mapping allows ({@link Bodies#protoName}).
 */
public final class VertexVectorSearchAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "vertex.vector-search";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.hostEndsWith(".vdb.vertexai.goog") || e.pathEndsWith(":findNeighbors")
                || e.pathEndsWith(":readIndexDatapoints") || e.pathEndsWith(":upsertDatapoints")
                || e.pathEndsWith(":removeDatapoints");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        Endpoint e = Endpoint.of(call);
        if (e.isPost() && e.pathEndsWith(":findNeighbors")) {
            return findNeighbors(call, e);
        }
        if (e.pathEndsWith(":upsertDatapoints") || e.pathEndsWith(":removeDatapoints")) {
            return new NotARunCall(name(), "index building: datapoint writes (" + e.path() + ")");
        }
        return new NotARunCall(name(), "index admin or lookup by id (" + e.method() + " " + e.path() + ")");
    }

    /** Several queries in one call are several searches; the first is the one read, as Chroma's. */
    private RetrieveDetail findNeighbors(CallEvent call, Endpoint e) throws AdapterException {
        JsonNode request = Bodies.requestObject(call);
        JsonNode queries = Bodies.requireArray(request, "queries");
        if (queries.isEmpty()) {
            throw new AdapterException("'queries' is empty");
        }
        JsonNode query = queries.get(0);
        JsonNode datapoint = query.path("datapoint");
        JsonNode vector = datapoint.get(Bodies.protoName(datapoint, "feature_vector"));
        float[] queryVector = vector == null || vector.isNull() ? null
                : Vectors.decode(vector, "queries[0].datapoint.feature_vector");
        Integer topK = Bodies.integer(query, Bodies.protoName(query, "neighbor_count"));
        String index = Bodies.label(request, Bodies.protoName(request, "deployed_index_id"));
        List<Passage> passages = Bodies.succeeded(call) ? neighbors(Bodies.responseJson(call)) : List.of();
        String collection = index != null ? index : e.idBeforeMethod("indexEndpoints"); // a search naming no index
        return new RetrieveDetail(name(), "vertex-vector-search", collection, null, queryVector, topK, passages);
    }

    /**
     * The first query's neighbors, closest first. Whether Vertex's {@code distance} is a distance or a similarity
     * depends on the index's distance measure, which the call does not name: the order tells ({@link DistanceOrder}).
     */
    private static List<Passage> neighbors(JsonNode reply) throws AdapterException {
        JsonNode results = Bodies.array(reply, Bodies.protoName(reply, "nearest_neighbors"));
        if (results == null || results.isEmpty()) {
            return List.of(); // a search that found nothing answers with an empty object
        }
        JsonNode neighbors = Bodies.array(results.get(0), "neighbors");
        if (neighbors == null) {
            return List.of();
        }
        double[] distances = new double[neighbors.size()];
        for (int i = 0; i < distances.length; i++) {
            Double d = Bodies.number(neighbors.get(i), "distance");
            distances[i] = d == null ? 0.0 : d; // proto3's JSON leaves a zero out: an exact match's squared L2
        }
        double[] scores = DistanceOrder.scores(distances);
        List<Passage> out = new ArrayList<>(neighbors.size());
        for (int i = 0; i < neighbors.size(); i++) {
            JsonNode datapoint = neighbors.get(i).path("datapoint");
            String text = PassageText.find(datapoint.get(Bodies.protoName(datapoint, "embedding_metadata")));
            out.add(new Passage(Passages.id(datapoint.get(Bodies.protoName(datapoint, "datapoint_id")), text), text,
                    scores[i], i + 1));
        }
        return List.copyOf(out);
    }
}
