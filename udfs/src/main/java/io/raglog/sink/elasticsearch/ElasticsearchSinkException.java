package io.raglog.sink.elasticsearch;

/**
 * Why the Elasticsearch sink stopped the job: a refused document under the fail-job handler, credentials or a
 * certificate Elasticsearch will never accept, a request it will never take. Messages name the cause and never
 * carry a credential or a document's body.
 */
public class ElasticsearchSinkException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public ElasticsearchSinkException(String message) {
        super(message);
    }
}
