package io.raglog.sink.elasticsearch;

import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import org.apache.flink.api.connector.sink2.WriterInitContext;
import org.apache.flink.connector.base.sink.AsyncSinkBase;
import org.apache.flink.connector.base.sink.writer.BufferedRequestState;
import org.apache.flink.connector.base.sink.writer.ElementConverter;
import org.apache.flink.connector.base.sink.writer.config.AsyncSinkWriterConfiguration;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Writes records to Elasticsearch with {@code _bulk} requests, at least once, with {@code _id} = the record's id so
 * that a replay after a failure overwrites and never duplicates: together, effectively once in the index.
 *
 * <p>Built on flink-connector-base's async sink: records are buffered and sent in batches (by count, bytes and
 * time), a bounded number of requests are in flight, and the buffer is part of every checkpoint. While Elasticsearch
 * is slow or down the sink retries with backoff and back-pressures the job rather than dropping anything; see
 * {@link ElasticsearchSinkWriter} for what happens to each kind of failure.
 *
 * <pre>{@code
 * ElasticsearchSink<Verdict> sink = ElasticsearchSink.<Verdict>builder()
 *         .setConnection(connection)
 *         .setEmitter(ElasticsearchEmitter.json("raglog-faults", Verdict::runId))
 *         .build();
 * }</pre>
 */
public final class ElasticsearchSink<T> extends AsyncSinkBase<T, BulkOperation> {

    private static final long serialVersionUID = 1L;

    public static final int DEFAULT_MAX_BATCH_SIZE = 500;
    /** Elasticsearch's own advice is a few MB per bulk request. */
    public static final long DEFAULT_MAX_BATCH_SIZE_IN_BYTES = 5L * 1024 * 1024;
    public static final int DEFAULT_MAX_IN_FLIGHT_REQUESTS = 2;
    public static final int DEFAULT_MAX_BUFFERED_REQUESTS = 5_000;
    /** The debugging queue is read by people: a flagged run shows up within a second even when traffic is thin. */
    public static final Duration DEFAULT_MAX_TIME_IN_BUFFER = Duration.ofSeconds(1);
    public static final String DEFAULT_DEAD_LETTER_INDEX = "raglog-dead-letters";

    private final ElasticsearchConnection connection;
    private final Backoff backoff;
    private final BulkFailureHandler failureHandler;

    private ElasticsearchSink(Builder<T> b) {
        super(converterOf(b.emitter, b.maxRecordSizeInBytes), b.maxBatchSize, b.maxInFlightRequests, b.maxBufferedRequests,
                b.maxBatchSizeInBytes, b.maxTimeInBuffer.toMillis(), b.maxRecordSizeInBytes);
        this.connection = b.connection;
        this.backoff = b.backoff;
        this.failureHandler = b.failureHandler;
    }

    public static <T> Builder<T> builder() {
        return new Builder<>();
    }

    @Override
    public ElasticsearchSinkWriter<T> createWriter(WriterInitContext context) throws IOException {
        return restoreWriter(context, List.of());
    }

    @Override
    public ElasticsearchSinkWriter<T> restoreWriter(WriterInitContext context,
            Collection<BufferedRequestState<BulkOperation>> recoveredState) throws IOException {
        AsyncSinkWriterConfiguration configuration = AsyncSinkWriterConfiguration.builder()
                .setMaxBatchSize(getMaxBatchSize())
                .setMaxBatchSizeInBytes(getMaxBatchSizeInBytes())
                .setMaxInFlightRequests(getMaxInFlightRequests())
                .setMaxBufferedRequests(getMaxBufferedRequests())
                .setMaxTimeInBufferMS(getMaxTimeInBufferMS())
                .setMaxRecordSizeInBytes(getMaxRecordSizeInBytes())
                .build();
        return new ElasticsearchSinkWriter<>(getElementConverter(), context, configuration, recoveredState,
                connection, backoff, failureHandler);
    }

    @Override
    public SimpleVersionedSerializer<BufferedRequestState<BulkOperation>> getWriterStateSerializer() {
        return new BulkOperationStateSerializer();
    }

    private static <T> ElementConverter<T, BulkOperation> converterOf(ElasticsearchEmitter<T> emitter,
            long maxRecordSizeInBytes) {
        return (element, context) -> {
            BulkOperation operation = emitter.emit(element);
            if (operation == null) {
                throw new IllegalArgumentException("the Elasticsearch emitter returned no operation for a record");
            }
            // Checked here, where the document can still be named; the writer's own check cannot say which one.
            if (operation.sizeInBytes() > maxRecordSizeInBytes) {
                throw new IllegalArgumentException(operation + " is larger than the Elasticsearch sink's max record"
                        + " size of " + maxRecordSizeInBytes + " bytes; raise it (and the max batch size in bytes)");
            }
            return operation;
        };
    }

    @Override
    public String toString() {
        return "ElasticsearchSink to " + connection + ", " + backoff + ", rejected documents: " + failureHandler;
    }

    /** Settings for an {@link ElasticsearchSink}, checked at {@link #build()}. */
    public static final class Builder<T> {
        private ElasticsearchConnection connection;
        private ElasticsearchEmitter<T> emitter;
        private int maxBatchSize = DEFAULT_MAX_BATCH_SIZE;
        private long maxBatchSizeInBytes = DEFAULT_MAX_BATCH_SIZE_IN_BYTES;
        private int maxInFlightRequests = DEFAULT_MAX_IN_FLIGHT_REQUESTS;
        private int maxBufferedRequests = DEFAULT_MAX_BUFFERED_REQUESTS;
        private Duration maxTimeInBuffer = DEFAULT_MAX_TIME_IN_BUFFER;
        private Long maxRecordSizeInBytes;
        private Backoff backoff = Backoff.defaults();
        private BulkFailureHandler failureHandler;

        private Builder() {}

        /** Hosts, credentials and TLS: {@link ElasticsearchConnection#builder()}. Required. */
        public Builder<T> setConnection(ElasticsearchConnection connection) {
            this.connection = connection;
            return this;
        }

        /** Index, {@code _id} and JSON of each record. Required. */
        public Builder<T> setEmitter(ElasticsearchEmitter<T> emitter) {
            this.emitter = emitter;
            return this;
        }

        /** Documents per {@code _bulk} request at most; default {@value #DEFAULT_MAX_BATCH_SIZE}. */
        public Builder<T> setMaxBatchSize(int documents) {
            this.maxBatchSize = documents;
            return this;
        }

        /** Bytes per {@code _bulk} request at most (5 MB by default). */
        public Builder<T> setMaxBatchSizeInBytes(long bytes) {
            this.maxBatchSizeInBytes = bytes;
            return this;
        }

        /** Requests per sink subtask waiting for Elasticsearch (or for a retry) at once; default 2. */
        public Builder<T> setMaxInFlightRequests(int requests) {
            this.maxInFlightRequests = requests;
            return this;
        }

        /**
         * Documents a subtask holds before {@code write} blocks and the job back-pressures; default 5000. They are in
         * every checkpoint, so this also bounds the sink's state.
         */
        public Builder<T> setMaxBufferedRequests(int documents) {
            this.maxBufferedRequests = documents;
            return this;
        }

        /** The longest a document waits for its batch to fill; default 1 s. */
        public Builder<T> setMaxTimeInBuffer(Duration time) {
            this.maxTimeInBuffer = time;
            return this;
        }

        /** The largest single document; default: the batch size in bytes. */
        public Builder<T> setMaxRecordSizeInBytes(long bytes) {
            this.maxRecordSizeInBytes = bytes;
            return this;
        }

        /** Waits between retries; default 100 ms doubling to 5 s. */
        public Builder<T> setBackoff(Backoff backoff) {
            this.backoff = backoff;
            return this;
        }

        /**
         * What becomes of a document Elasticsearch refuses for good; default
         * {@link BulkFailureHandlers#deadLetterIndex(String)} into {@value #DEFAULT_DEAD_LETTER_INDEX}.
         */
        public Builder<T> setFailureHandler(BulkFailureHandler handler) {
            this.failureHandler = handler;
            return this;
        }

        public ElasticsearchSink<T> build() {
            if (connection == null) {
                throw new IllegalArgumentException("Elasticsearch hosts are not set: call setConnection("
                        + "ElasticsearchConnection.builder().setHosts(\"https://host:9200\")...build())");
            }
            if (emitter == null) {
                throw new IllegalArgumentException("the Elasticsearch emitter is not set: call setEmitter(...) with "
                        + "the index, _id and JSON of each record, e.g. ElasticsearchEmitter.json(index, idOf)");
            }
            positive(maxBatchSize, "max batch size");
            positive(maxBatchSizeInBytes, "max batch size in bytes");
            positive(maxInFlightRequests, "max in-flight requests");
            positive(maxBufferedRequests, "max buffered requests");
            if (maxTimeInBuffer == null || maxTimeInBuffer.isNegative() || maxTimeInBuffer.isZero()) {
                throw new IllegalArgumentException("Elasticsearch sink max time in buffer must be positive, was "
                        + maxTimeInBuffer);
            }
            if (maxBufferedRequests <= maxBatchSize) {
                throw new IllegalArgumentException("Elasticsearch sink max buffered requests (" + maxBufferedRequests
                        + ") must be greater than max batch size (" + maxBatchSize + ")");
            }
            if (maxRecordSizeInBytes == null) {
                maxRecordSizeInBytes = maxBatchSizeInBytes;
            }
            positive(maxRecordSizeInBytes, "max record size in bytes");
            if (maxRecordSizeInBytes > maxBatchSizeInBytes) {
                throw new IllegalArgumentException("Elasticsearch sink max record size (" + maxRecordSizeInBytes
                        + " bytes) must not exceed max batch size in bytes (" + maxBatchSizeInBytes + ")");
            }
            if (backoff == null) {
                throw new IllegalArgumentException("Elasticsearch sink backoff is null");
            }
            if (failureHandler == null) {
                failureHandler = BulkFailureHandlers.deadLetterIndex(DEFAULT_DEAD_LETTER_INDEX);
            }
            return new ElasticsearchSink<>(this);
        }

        private static void positive(long value, String what) {
            if (value <= 0) {
                throw new IllegalArgumentException("Elasticsearch sink " + what + " must be positive, was " + value);
            }
        }
    }
}
