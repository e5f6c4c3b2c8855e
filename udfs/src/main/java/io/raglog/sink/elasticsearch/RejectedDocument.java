package io.raglog.sink.elasticsearch;

/**
 * A document Elasticsearch refused for good (a mapping conflict, a malformed document: a 4xx other than 429), with
 * Elasticsearch's reason. Retrying would fail the same way, so it goes to the {@link BulkFailureHandler}.
 *
 * @param operation what was sent; its {@code toString} leaves the document body out
 * @param status the item's HTTP status
 * @param errorType Elasticsearch's error type, e.g. {@code mapper_parsing_exception}
 * @param errorReason Elasticsearch's reason, with its root cause, shortened (it can quote a field's value)
 */
public record RejectedDocument(BulkOperation operation, int status, String errorType, String errorReason) {

    /** One line for logs and exceptions: where, which id, why; never the document. */
    public String describe() {
        return "Elasticsearch rejected " + operation + ": " + status + " " + errorType + ": " + errorReason;
    }
}
