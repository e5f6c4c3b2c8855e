package io.raglog.sink.elasticsearch;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads a {@code _bulk} reply item by item: which documents were written, which failed for a passing reason (retry
 * them) and which were refused for good (hand them to the failure handler). The reply lists its items in the order
 * of the request, which is how an item is tied back to its operation.
 */
final class BulkResponse {

    /** Item errors that say "not now" rather than "not this document". */
    private static final Set<String> RETRYABLE_TYPES = Set.of(
            "es_rejected_execution_exception",
            "unavailable_shards_exception",
            "circuit_breaking_exception",
            "process_cluster_event_timeout_exception",
            "node_closed_exception",
            "no_shard_available_action_exception");

    /** Elasticsearch's reasons can quote a field's value; a log line needs the gist, not a document's worth. */
    static final int MAX_REASON_CHARS = 300;

    /**
     * @param written documents Elasticsearch acknowledged
     * @param retryable documents to send again after a backoff
     * @param rejected documents refused for good
     * @param retryReason the first retryable item's status and error, for the log line; null when none
     */
    record Outcome(int written, List<BulkOperation> retryable, List<RejectedDocument> rejected, String retryReason) {

        boolean allWritten() {
            return retryable.isEmpty() && rejected.isEmpty();
        }
    }

    private BulkResponse() {}

    /** @throws IOException when the reply is not a bulk reply for these operations (then nothing is known) */
    static Outcome read(byte[] body, List<BulkOperation> sent) throws IOException {
        JsonNode reply = Json.MAPPER.readTree(body);
        if (reply == null || !reply.isObject() || !reply.path("items").isArray()) {
            throw new IOException("not a _bulk reply (no items array)");
        }
        JsonNode items = reply.get("items");
        if (items.size() != sent.size()) {
            throw new IOException("the _bulk reply has " + items.size() + " items for " + sent.size()
                    + " operations");
        }
        if (!reply.path("errors").asBoolean(true)) {
            return new Outcome(sent.size(), List.of(), List.of(), null);
        }

        int written = 0;
        List<BulkOperation> retryable = new ArrayList<>();
        List<RejectedDocument> rejected = new ArrayList<>();
        String retryReason = null;
        for (int i = 0; i < sent.size(); i++) {
            JsonNode item = firstValue(items.get(i));
            int status = item.path("status").asInt(0);
            JsonNode error = item.get("error");
            if (status >= 200 && status < 300 && error == null) {
                written++;
                continue;
            }
            String type = error == null ? "unknown" : error.path("type").asText("unknown");
            String reason = reasonOf(error);
            if (isRetryable(status, type)) {
                retryable.add(sent.get(i));
                if (retryReason == null) {
                    retryReason = status + " " + type + ": " + reason;
                }
            } else {
                rejected.add(new RejectedDocument(sent.get(i), status, type, reason));
            }
        }
        return new Outcome(written, retryable, rejected, retryReason);
    }

    static boolean isRetryable(int status, String errorType) {
        return status == 429 || status >= 500 || status == 0 || RETRYABLE_TYPES.contains(errorType);
    }

    /** The reason, with the root cause's when there is one: "failed to parse field [x]" alone says too little. */
    static String reasonOf(JsonNode error) {
        if (error == null) {
            return "no error given";
        }
        if (error.isTextual()) {
            return shorten(error.asText());
        }
        StringBuilder reason = new StringBuilder(error.path("reason").asText(""));
        JsonNode cause = error.get("caused_by");
        int depth = 0;
        while (cause != null && cause.isObject() && depth++ < 3) {
            reason.append(" (caused by ").append(cause.path("type").asText("?")).append(": ")
                    .append(cause.path("reason").asText("")).append(')');
            cause = cause.get("caused_by");
        }
        return shorten(reason.toString());
    }

    static String shorten(String text) {
        return text.length() <= MAX_REASON_CHARS ? text : text.substring(0, MAX_REASON_CHARS) + "...";
    }

    /** An item is {@code {"index": {...}}}, keyed by its operation. */
    private static JsonNode firstValue(JsonNode item) {
        if (item != null && item.isObject() && item.size() > 0) {
            return item.elements().next();
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }
}
