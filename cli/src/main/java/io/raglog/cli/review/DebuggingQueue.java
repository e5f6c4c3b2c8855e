package io.raglog.cli.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.Json;
import io.raglog.schemas.Review;
import io.raglog.schemas.Verdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The debugging queue as the job leaves it in Elasticsearch ({@code raglog-faults}: one verdict per queued run,
 * {@code _id} = run id) and the reviews people have made of it ({@code raglog-reviews}, same ids). Read only.
 */
final class DebuggingQueue {

    /** One line of the queue's list: enough to choose a run, and whether someone has reviewed it. */
    record Item(String runId, String pipeline, String question, List<String> queueReasons, Instant scoredAt,
            boolean reviewed) {}

    /** A page of the queue and how many runs match in all. */
    record Page(long total, List<Item> runs) {}

    private final ElasticsearchRest elasticsearch;
    private final String faultsIndex;
    private final String reviewsIndex;

    DebuggingQueue(ElasticsearchRest elasticsearch, String faultsIndex, String reviewsIndex) {
        this.elasticsearch = elasticsearch;
        this.faultsIndex = faultsIndex;
        this.reviewsIndex = reviewsIndex;
    }

    Page list(QueueFilter filter) {
        JsonNode reply = elasticsearch.call("POST", "/" + faultsIndex + "/_search", filter.searchBody());
        if (reply == null) {
            return new Page(0, List.of());
        }
        List<Verdict> verdicts = new ArrayList<>();
        for (JsonNode hit : reply.path("hits").path("hits")) {
            verdicts.add(verdictOf(hit.path("_source")));
        }
        Set<String> reviewed = reviewedAmong(verdicts.stream().map(Verdict::runId).toList());
        List<Item> items = new ArrayList<>();
        for (Verdict v : verdicts) {
            items.add(new Item(v.runId(), v.pipeline(), v.question(), v.queueReasons(), v.scoredAt(),
                    reviewed.contains(v.runId())));
        }
        return new Page(reply.path("hits").path("total").path("value").asLong(items.size()), items);
    }

    /** The queued run's verdict, null when the queue does not hold it. */
    Verdict verdict(String runId) {
        JsonNode doc = elasticsearch.call("GET", ElasticsearchRest.document(faultsIndex, runId), null);
        return doc == null || !doc.path("found").asBoolean() ? null : verdictOf(doc.path("_source"));
    }

    /** The latest review of a run, null when nobody has reviewed it. */
    Review review(String runId) {
        JsonNode doc = elasticsearch.call("GET", ElasticsearchRest.document(reviewsIndex, runId), null);
        return doc == null || !doc.path("found").asBoolean() ? null
                : Json.MAPPER.convertValue(doc.path("_source"), Review.class);
    }

    /** The pipelines with runs in the queue, for the page's filter. */
    List<String> pipelines() {
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("size", 0);
        body.putObject("aggs").putObject("pipelines").putObject("terms").put("field", "pipeline").put("size", 500);
        JsonNode reply = elasticsearch.call("POST", "/" + faultsIndex + "/_search", Json.write(body));
        List<String> names = new ArrayList<>();
        if (reply != null) {
            reply.path("aggregations").path("pipelines").path("buckets").forEach(b -> names.add(b.path("key").asText()));
        }
        names.sort(null);
        return names;
    }

    private Set<String> reviewedAmong(List<String> runIds) {
        Set<String> reviewed = new HashSet<>();
        if (runIds.isEmpty()) {
            return reviewed;
        }
        ObjectNode body = Json.MAPPER.createObjectNode();
        body.put("size", runIds.size());
        body.put("_source", false);
        runIds.forEach(body.putObject("query").putObject("ids").putArray("values")::add);
        JsonNode reply = elasticsearch.call("POST", "/" + reviewsIndex + "/_search", Json.write(body));
        if (reply != null) {
            reply.path("hits").path("hits").forEach(hit -> reviewed.add(hit.path("_id").asText()));
        }
        return reviewed;
    }

    private static Verdict verdictOf(JsonNode source) {
        return Json.MAPPER.convertValue(source, Verdict.class);
    }
}
