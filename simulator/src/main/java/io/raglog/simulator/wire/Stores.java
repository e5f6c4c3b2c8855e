package io.raglog.simulator.wire;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** Vector stores: Qdrant, Pinecone, Elasticsearch kNN — searches, and the upserts index building makes. */
public final class Stores {

    /** A stored chunk as a store returns it. */
    public record Match(String id, String chunkId, String docId, String title, String text, double score) {}

    /** A chunk to store. */
    public record Point(String id, String chunkId, String docId, String title, String text, float[] vector) {}

    private Stores() {}

    public static ObjectNode qdrantSearchRequest(float[] vector, int limit) {
        ObjectNode body = Nodes.object();
        body.set("vector", Nodes.floats(vector));
        body.put("limit", limit).put("with_payload", true).put("with_vector", false);
        return body;
    }

    public static ObjectNode qdrantSearchResponse(List<Match> matches, double seconds) {
        ObjectNode body = Nodes.object();
        ArrayNode result = body.putArray("result");
        for (Match m : matches) {
            ObjectNode point = result.addObject().put("id", m.id()).put("version", 3).put("score", (float) m.score());
            point.putObject("payload").put("text", m.text()).put("doc_id", m.docId()).put("chunk_id", m.chunkId())
                    .put("title", m.title());
            point.putNull("vector").putNull("shard_key").putNull("order_value");
        }
        body.put("status", "ok").put("time", seconds);
        return body;
    }

    public static ObjectNode qdrantUpsertRequest(List<Point> points) {
        ObjectNode body = Nodes.object();
        ArrayNode out = body.putArray("points");
        for (Point p : points) {
            ObjectNode point = out.addObject().put("id", p.id());
            point.set("vector", Nodes.floats(p.vector()));
            point.putObject("payload").put("text", p.text()).put("doc_id", p.docId()).put("chunk_id", p.chunkId())
                    .put("title", p.title());
        }
        return body;
    }

    public static ObjectNode qdrantUpsertResponse(long operationId, double seconds) {
        ObjectNode body = Nodes.object();
        body.putObject("result").put("operation_id", operationId).put("status", "completed");
        body.put("status", "ok").put("time", seconds);
        return body;
    }

    public static ObjectNode qdrantCollectionInfo(String collection, int points, int dims) {
        ObjectNode body = Nodes.object();
        ObjectNode result = body.putObject("result").put("status", "green").put("optimizer_status", "ok")
                .put("indexed_vectors_count", points).put("points_count", points).put("segments_count", 2);
        result.putObject("config").putObject("params").putObject("vectors").put("size", dims)
                .put("distance", "Cosine");
        body.put("status", "ok").put("time", 0.000041);
        return body;
    }

    public static ObjectNode pineconeQueryRequest(String namespace, float[] vector, int topK) {
        ObjectNode body = Nodes.object().put("namespace", namespace);
        body.set("vector", Nodes.floats(vector));
        body.put("topK", topK).put("includeMetadata", true).put("includeValues", false);
        return body;
    }

    public static ObjectNode pineconeQueryResponse(String namespace, List<Match> matches, int readUnits) {
        ObjectNode body = Nodes.object();
        body.putArray("results");
        ArrayNode out = body.putArray("matches");
        for (Match m : matches) {
            ObjectNode match = out.addObject().put("id", m.id()).put("score", (float) m.score());
            match.putArray("values");
            match.putObject("metadata").put("doc_id", m.docId()).put("text", m.text()).put("title", m.title());
        }
        body.put("namespace", namespace);
        body.putObject("usage").put("readUnits", readUnits);
        return body;
    }

    public static ObjectNode pineconeUpsertRequest(String namespace, List<Point> points) {
        ObjectNode body = Nodes.object();
        ArrayNode vectors = body.putArray("vectors");
        for (Point p : points) {
            ObjectNode v = vectors.addObject().put("id", p.id());
            v.set("values", Nodes.floats(p.vector()));
            v.putObject("metadata").put("doc_id", p.docId()).put("text", p.text()).put("title", p.title());
        }
        body.put("namespace", namespace);
        return body;
    }

    public static ObjectNode pineconeUpsertResponse(int count) {
        return Nodes.object().put("upsertedCount", count);
    }

    public static ObjectNode elasticKnnRequest(String field, float[] vector, int k, int numCandidates) {
        ObjectNode body = Nodes.object();
        ObjectNode knn = body.putObject("knn").put("field", field);
        knn.set("query_vector", Nodes.floats(vector));
        knn.put("k", k).put("num_candidates", numCandidates);
        body.set("_source", Nodes.strings(List.of("text", "doc_id", "title")));
        body.put("size", k);
        return body;
    }

    /** Elasticsearch reports cosine kNN hits as (1 + cosine) / 2. */
    public static ObjectNode elasticKnnResponse(String index, List<Match> matches, int tookMs) {
        ObjectNode body = Nodes.object().put("took", tookMs).put("timed_out", false);
        body.putObject("_shards").put("total", 1).put("successful", 1).put("skipped", 0).put("failed", 0);
        ObjectNode hits = body.putObject("hits");
        hits.putObject("total").put("value", matches.size()).put("relation", "eq");
        hits.put("max_score", matches.isEmpty() ? 0f : (float) ((1 + matches.get(0).score()) / 2));
        ArrayNode out = hits.putArray("hits");
        for (Match m : matches) {
            ObjectNode hit = out.addObject().put("_index", index).put("_id", m.id())
                    .put("_score", (float) ((1 + m.score()) / 2));
            hit.putObject("_source").put("text", m.text()).put("doc_id", m.docId()).put("title", m.title());
        }
        return body;
    }

    /** The NDJSON body of a bulk index request: not JSON as a whole, so it is captured as a string. */
    public static String elasticBulkRequest(String index, String field, List<Point> points) {
        StringBuilder sb = new StringBuilder();
        for (Point p : points) {
            ObjectNode action = Nodes.object();
            action.putObject("index").put("_index", index).put("_id", p.id());
            ObjectNode source = Nodes.object().put("text", p.text()).put("doc_id", p.docId()).put("title", p.title());
            source.set(field, Nodes.floats(p.vector()));
            sb.append(Nodes.compact(action)).append('\n').append(Nodes.compact(source)).append('\n');
        }
        return sb.toString();
    }

    public static ObjectNode elasticBulkResponse(String index, List<Point> points, int tookMs, long seqNoStart) {
        ObjectNode body = Nodes.object().put("errors", false).put("took", tookMs);
        ArrayNode items = body.putArray("items");
        long seq = seqNoStart;
        for (Point p : points) {
            ObjectNode item = items.addObject().putObject("index").put("_index", index).put("_id", p.id())
                    .put("_version", 2).put("result", "updated");
            item.putObject("_shards").put("total", 2).put("successful", 1).put("failed", 0);
            item.put("_seq_no", seq++).put("_primary_term", 1).put("status", 200);
        }
        return body;
    }
}
