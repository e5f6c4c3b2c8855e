package io.raglog.sink.elasticsearch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLPeerUnverifiedException;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.base.sink.writer.AsyncSinkWriter;
import org.apache.flink.connector.base.sink.writer.BufferedRequestState;
import org.apache.flink.connector.base.sink.writer.DequeRequestBuffer;
import org.apache.flink.connector.base.sink.writer.ElementConverter;
import org.apache.flink.connector.base.sink.writer.ResultHandler;
import org.apache.flink.connector.base.sink.writer.SimpleBatchCreator;
import org.apache.flink.connector.base.sink.writer.config.AsyncSinkWriterConfiguration;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;
import org.apache.flink.metrics.ThreadSafeSimpleCounter;
import org.apache.http.entity.ByteArrayEntity;
import org.apache.http.entity.ContentType;
import org.apache.http.util.EntityUtils;
import org.elasticsearch.client.Request;
import org.elasticsearch.client.Response;
import org.elasticsearch.client.ResponseException;
import org.elasticsearch.client.ResponseListener;
import org.elasticsearch.client.RestClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the buffered operations as {@code _bulk} requests and sorts out each reply.
 *
 * <ul>
 *   <li>Written: done.
 *   <li>Not written for a passing reason (the whole request: connection refused, timeout, 429, 5xx; or single items:
 *       429, 5xx, rejected execution): sent again after a {@link Backoff}, forever. The request keeps its in-flight
 *       slot while it waits, so once every slot waits and the buffer is full, {@code write} blocks: that is the
 *       back-pressure that holds the job while Elasticsearch is down, and the buffer is in the checkpoint.
 *   <li>Refused for good (an item's mapping error, a 400): counted, logged without its body, and given to the
 *       {@link BulkFailureHandler}; what it returns (a dead letter) is written like any other operation.
 *   <li>A request Elasticsearch will never take (401/403 credentials, an untrusted certificate, 413, another 4xx):
 *       the job fails with a message that says what to fix. Retrying would only hide it.
 * </ul>
 *
 * <p>Reply handling runs on the HTTP client's I/O thread and only hands results to the {@link ResultHandler}, which
 * passes them to the task's mailbox thread.
 */
final class ElasticsearchSinkWriter<T> extends AsyncSinkWriter<T, BulkOperation> {

    private static final Logger LOG = LoggerFactory.getLogger(ElasticsearchSinkWriter.class);

    private static final ContentType NDJSON = ContentType.create("application/x-ndjson", StandardCharsets.UTF_8);

    private final String hosts;
    private final RestClient client;
    private final Backoff backoff;
    private final BulkFailureHandler failureHandler;
    /** Delays retries off the I/O thread; one thread is plenty, it only hands batches back. */
    private final ScheduledExecutorService retryTimer;
    private final AtomicInteger consecutiveFailures = new AtomicInteger();

    private final Counter requestsFailed;
    private final Counter documentsRetried;
    private final Counter documentsRejected;

    ElasticsearchSinkWriter(ElementConverter<T, BulkOperation> converter, WriterInitContext context,
            AsyncSinkWriterConfiguration configuration, Collection<BufferedRequestState<BulkOperation>> state,
            ElasticsearchConnection connection, Backoff backoff, BulkFailureHandler failureHandler) {
        super(converter, context, configuration, state,
                new SimpleBatchCreator<>(configuration.getMaxBatchSizeInBytes()), new DequeRequestBuffer<>());
        this.hosts = String.join(",", connection.hosts());
        this.client = connection.openClient();
        this.backoff = backoff;
        this.failureHandler = failureHandler;
        this.retryTimer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "raglog-elasticsearch-retry");
            t.setDaemon(true);
            return t;
        });
        MetricGroup metrics = context.metricGroup().addGroup("elasticsearch");
        this.requestsFailed = metrics.counter("bulkRequestsFailed", new ThreadSafeSimpleCounter());
        this.documentsRetried = metrics.counter("documentsRetried", new ThreadSafeSimpleCounter());
        this.documentsRejected = metrics.counter("documentsRejected", new ThreadSafeSimpleCounter());
        metrics.gauge("consecutiveFailures", consecutiveFailures::get);
    }

    @Override
    protected void submitRequestEntries(List<BulkOperation> batch, ResultHandler<BulkOperation> result) {
        Request request = new Request("POST", "/_bulk");
        request.setEntity(new ByteArrayEntity(BulkRequestBody.encode(batch), NDJSON));
        client.performRequestAsync(request, new ResponseListener() {
            @Override
            public void onSuccess(Response response) {
                onReply(batch, response, result);
            }

            @Override
            public void onFailure(Exception failure) {
                onRequestFailed(batch, failure, result);
            }
        });
    }

    @Override
    protected long getSizeInBytes(BulkOperation operation) {
        return operation.sizeInBytes();
    }

    private void onReply(List<BulkOperation> batch, Response response, ResultHandler<BulkOperation> result) {
        BulkResponse.Outcome outcome;
        try {
            outcome = BulkResponse.read(EntityUtils.toByteArray(response.getEntity()), batch);
        } catch (IOException | RuntimeException e) {
            // Nothing is known about what was written; writing by _id again is harmless.
            requestsFailed.inc();
            // Jackson's full message quotes the reply; its original message does not.
            String why = e instanceof JsonProcessingException ? ((JsonProcessingException) e).getOriginalMessage()
                    : e.getMessage();
            retryLater(batch, "an unreadable _bulk reply from " + response.getHost() + ": " + why, result);
            return;
        }

        List<BulkOperation> next = new ArrayList<>(outcome.retryable());
        for (RejectedDocument rejected : outcome.rejected()) {
            documentsRejected.inc();
            LOG.error("{}; handing it to the failure handler ({})", rejected.describe(), failureHandler);
            try {
                failureHandler.onRejected(rejected).ifPresent(next::add);
            } catch (Exception e) {
                result.completeExceptionally(e instanceof ElasticsearchSinkException ? e
                        : new ElasticsearchSinkException("the failure handler failed on a refused document ("
                                + rejected.describe() + "): " + e));
                return;
            }
        }

        if (outcome.retryable().isEmpty()) {
            recovered();
            if (next.isEmpty()) {
                result.complete();
            } else {
                result.retryForEntries(next);
            }
        } else {
            documentsRetried.inc(outcome.retryable().size());
            retryLater(next, outcome.retryable().size() + " of " + batch.size() + " documents not written ("
                    + outcome.retryReason() + ")", result);
        }
    }

    private void onRequestFailed(List<BulkOperation> batch, Exception failure, ResultHandler<BulkOperation> result) {
        if (failure instanceof ResponseException) {
            Response response = ((ResponseException) failure).getResponse();
            int status = response.getStatusLine().getStatusCode();
            String reason = errorOf(response);
            if (status == 429 || status >= 500) {
                requestsFailed.inc();
                retryLater(batch, "HTTP " + status + " from " + response.getHost() + " (" + reason + ")", result);
            } else if (status == 401 || status == 403) {
                result.completeExceptionally(new ElasticsearchSinkException("Elasticsearch at " + response.getHost()
                        + " refused raglog's credentials (HTTP " + status + ": " + reason
                        + "); check the API key or user and its privileges on the index"));
            } else if (status == 413) {
                result.completeExceptionally(new ElasticsearchSinkException("Elasticsearch at " + response.getHost()
                        + " refused a _bulk request of " + batch.size() + " documents as too large (HTTP 413); "
                        + "set the sink's max batch size in bytes below the cluster's http.max_content_length"));
            } else {
                result.completeExceptionally(new ElasticsearchSinkException("Elasticsearch at " + response.getHost()
                        + " refused a _bulk request with HTTP " + status + ": " + reason));
            }
        } else if (isUntrustedCertificate(failure)) {
            result.completeExceptionally(new ElasticsearchSinkException("the TLS certificate of Elasticsearch at "
                    + hosts + " is not trusted (" + failure.getMessage() + "); give the CA certificate file of the "
                    + "cluster, or add its CA to the JVM trust store"));
        } else if (failure instanceof CancellationException) {
            LOG.debug("a _bulk request was cancelled: the writer is closing");
        } else if (failure instanceof IOException) {
            requestsFailed.inc();
            retryLater(batch, "Elasticsearch at " + hosts + " unreachable (" + failure + ")", result);
        } else {
            result.completeExceptionally(new ElasticsearchSinkException("unexpected error writing to Elasticsearch at "
                    + hosts + ": " + failure));
        }
    }

    /** Hands the operations back to the buffer after a backoff; the request holds its in-flight slot until then. */
    private void retryLater(List<BulkOperation> operations, String why, ResultHandler<BulkOperation> result) {
        int attempt = consecutiveFailures.incrementAndGet();
        long delayMs = backoff.delayMs(attempt);
        // Enough to see a problem start and go on; not a line per attempt for an hour-long outage.
        if (attempt <= 3 || attempt % 20 == 0) {
            LOG.warn("Elasticsearch write failed: {}; retrying {} documents in {} ms (consecutive failure {})",
                    why, operations.size(), delayMs, attempt);
        } else {
            LOG.debug("Elasticsearch write failed: {}; retrying {} documents in {} ms (consecutive failure {})",
                    why, operations.size(), delayMs, attempt);
        }
        try {
            retryTimer.schedule(() -> result.retryForEntries(operations), delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closing) {
            // The writer is closing: the operations are in the last checkpoint's state, or the job is cancelled.
            LOG.debug("not retrying {} documents: the Elasticsearch writer is closing", operations.size());
        }
    }

    private void recovered() {
        int failures = consecutiveFailures.getAndSet(0);
        if (failures > 0) {
            LOG.info("Elasticsearch at {} takes writes again after {} failed attempts", hosts, failures);
        }
    }

    /** Elasticsearch's error type and reason from an error reply; never the raw body, which can echo a document. */
    private static String errorOf(Response response) {
        try {
            JsonNode reply = Json.MAPPER.readTree(EntityUtils.toByteArray(response.getEntity()));
            JsonNode error = reply == null ? null : reply.get("error");
            if (error != null && error.isObject()) {
                return error.path("type").asText("error") + ": " + BulkResponse.reasonOf(error);
            }
            if (error != null) {
                return BulkResponse.shorten(error.asText());
            }
        } catch (IOException | RuntimeException e) {
            // not JSON (a proxy's HTML page, an empty body): the status line is all there is
        }
        String phrase = response.getStatusLine().getReasonPhrase();
        return phrase == null || phrase.isBlank() ? "no error details" : phrase;
    }

    private static boolean isUntrustedCertificate(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SSLPeerUnverifiedException || t instanceof CertificateException) {
                return true;
            }
            if (t instanceof SSLHandshakeException && t.getCause() == null
                    && String.valueOf(t.getMessage()).contains("certificate")) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        retryTimer.shutdownNow();
        try {
            client.close();
        } catch (IOException e) {
            LOG.warn("closing the Elasticsearch client failed: {}", e.toString());
        }
    }
}
