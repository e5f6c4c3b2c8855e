package io.raglog.sink.elasticsearch;

import java.io.Serializable;
import java.util.Optional;

/**
 * Decides what becomes of a document Elasticsearch refused for good. By the time it is called the sink has counted
 * the rejection ({@code numRejectedDocuments}) and logged it without the document's body.
 *
 * <p>Called on the HTTP client's I/O thread: implementations must be quick and thread-safe.
 *
 * @see BulkFailureHandlers#deadLetterIndex(String) the default
 * @see BulkFailureHandlers#failJob()
 */
@FunctionalInterface
public interface BulkFailureHandler extends Serializable {

    /**
     * @return an operation the sink writes instead, with the same retries and checkpointing as any other (a
     *     dead-letter document, say); empty only when the handler has itself kept the document somewhere: the sink
     *     never drops one on its own
     * @throws Exception to fail the job; the exception's message is the job's failure cause
     */
    Optional<BulkOperation> onRejected(RejectedDocument rejected) throws Exception;
}
