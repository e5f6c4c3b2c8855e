package io.raglog.sink.elasticsearch;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOption;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.ReadableConfig;

/**
 * The Elasticsearch settings as typed Flink options, so the job reads them from its configuration (or the command
 * line) in one place: {@link #connection(ReadableConfig)} and {@link #applyTo(ElasticsearchSink.Builder,
 * ReadableConfig)}.
 */
public final class ElasticsearchOptions {

    public static final ConfigOption<List<String>> HOSTS = ConfigOptions.key("elasticsearch.hosts")
            .stringType().asList().noDefaultValue()
            .withDescription("Elasticsearch URLs, http(s)://host:port, separated by ';'. Unset: no Elasticsearch.");

    public static final ConfigOption<String> API_KEY = ConfigOptions.key("elasticsearch.api-key")
            .stringType().noDefaultValue()
            .withDescription("Encoded API key (base64 of id:api_key), sent as 'Authorization: ApiKey ...'.");

    public static final ConfigOption<String> USERNAME = ConfigOptions.key("elasticsearch.username")
            .stringType().noDefaultValue()
            .withDescription("User for basic auth (instead of an API key).");

    public static final ConfigOption<String> PASSWORD = ConfigOptions.key("elasticsearch.password")
            .stringType().noDefaultValue()
            .withDescription("Password for basic auth.");

    public static final ConfigOption<String> CA_CERTIFICATE = ConfigOptions.key("elasticsearch.ca-certificate")
            .stringType().noDefaultValue()
            .withDescription("PEM file of the CA to trust for https hosts; unset: the JVM's trust store.");

    public static final ConfigOption<Duration> CONNECT_TIMEOUT = ConfigOptions.key("elasticsearch.connect-timeout")
            .durationType().defaultValue(ElasticsearchConnection.DEFAULT_CONNECT_TIMEOUT)
            .withDescription("Time to open a connection.");

    public static final ConfigOption<Duration> SOCKET_TIMEOUT = ConfigOptions.key("elasticsearch.socket-timeout")
            .durationType().defaultValue(ElasticsearchConnection.DEFAULT_SOCKET_TIMEOUT)
            .withDescription("Time a request may wait for data before it fails and is retried.");

    public static final ConfigOption<Boolean> COMPRESSION = ConfigOptions.key("elasticsearch.compression")
            .booleanType().defaultValue(false)
            .withDescription("Gzip request bodies.");

    public static final ConfigOption<Integer> MAX_BATCH_SIZE = ConfigOptions.key("elasticsearch.sink.max-batch-size")
            .intType().defaultValue(ElasticsearchSink.DEFAULT_MAX_BATCH_SIZE)
            .withDescription("Documents per _bulk request at most.");

    public static final ConfigOption<MemorySize> MAX_BATCH_BYTES = ConfigOptions.key("elasticsearch.sink.max-batch-bytes")
            .memoryType().defaultValue(new MemorySize(ElasticsearchSink.DEFAULT_MAX_BATCH_SIZE_IN_BYTES))
            .withDescription("Bytes per _bulk request at most; also the largest single document.");

    public static final ConfigOption<Integer> MAX_IN_FLIGHT_REQUESTS =
            ConfigOptions.key("elasticsearch.sink.max-in-flight-requests")
                    .intType().defaultValue(ElasticsearchSink.DEFAULT_MAX_IN_FLIGHT_REQUESTS)
                    .withDescription("Requests per sink subtask waiting for Elasticsearch (or a retry) at once.");

    public static final ConfigOption<Integer> MAX_BUFFERED_REQUESTS =
            ConfigOptions.key("elasticsearch.sink.max-buffered-requests")
                    .intType().defaultValue(ElasticsearchSink.DEFAULT_MAX_BUFFERED_REQUESTS)
                    .withDescription("Documents a sink subtask holds before the job back-pressures.");

    public static final ConfigOption<Duration> MAX_TIME_IN_BUFFER =
            ConfigOptions.key("elasticsearch.sink.max-time-in-buffer")
                    .durationType().defaultValue(ElasticsearchSink.DEFAULT_MAX_TIME_IN_BUFFER)
                    .withDescription("The longest a document waits for its batch to fill.");

    public static final ConfigOption<Duration> INITIAL_BACKOFF = ConfigOptions.key("elasticsearch.sink.initial-backoff")
            .durationType().defaultValue(Backoff.DEFAULT_INITIAL)
            .withDescription("Wait before the first retry; doubles with every consecutive failure.");

    public static final ConfigOption<Duration> MAX_BACKOFF = ConfigOptions.key("elasticsearch.sink.max-backoff")
            .durationType().defaultValue(Backoff.DEFAULT_MAX)
            .withDescription("The longest wait between retries; retries never stop.");

    /** What to do with a document Elasticsearch refuses for good. */
    public enum OnRejected {
        /** Keep it, verbatim, with the reason, in the dead-letter index, and go on (the default). */
        DEAD_LETTER,
        /** Fail the job, naming the document and the reason. */
        FAIL_JOB
    }

    public static final ConfigOption<OnRejected> ON_REJECTED = ConfigOptions.key("elasticsearch.sink.on-rejected")
            .enumType(OnRejected.class).defaultValue(OnRejected.DEAD_LETTER)
            .withDescription("DEAD_LETTER: keep refused documents in the dead-letter index and go on; "
                    + "FAIL_JOB: stop the job on the first one.");

    public static final ConfigOption<String> DEAD_LETTER_INDEX = ConfigOptions.key("elasticsearch.dead-letter-index")
            .stringType().defaultValue(ElasticsearchSink.DEFAULT_DEAD_LETTER_INDEX)
            .withDescription("Where refused documents are kept.");

    private ElasticsearchOptions() {}

    /** Whether Elasticsearch is configured at all. */
    public static boolean isConfigured(ReadableConfig config) {
        return config.getOptional(HOSTS).filter(hosts -> !hosts.isEmpty()).isPresent();
    }

    /** The connection these options describe; names the option that is missing or contradicts another. */
    public static ElasticsearchConnection connection(ReadableConfig config) {
        ElasticsearchConnection.Builder builder = ElasticsearchConnection.builder()
                .setConnectTimeout(config.get(CONNECT_TIMEOUT))
                .setSocketTimeout(config.get(SOCKET_TIMEOUT))
                .setCompression(config.get(COMPRESSION));
        List<String> hosts = config.getOptional(HOSTS).orElse(List.of());
        if (hosts.isEmpty()) {
            throw new IllegalArgumentException(HOSTS.key() + " is not set: give at least one http(s)://host:port");
        }
        builder.setHosts(hosts);
        boolean apiKey = config.getOptional(API_KEY).isPresent();
        boolean username = config.getOptional(USERNAME).isPresent();
        boolean password = config.getOptional(PASSWORD).isPresent();
        if (apiKey && (username || password)) {
            throw new IllegalArgumentException("set either " + API_KEY.key() + " or " + USERNAME.key() + "/"
                    + PASSWORD.key() + ", not both");
        }
        if (password && !username) {
            throw new IllegalArgumentException(PASSWORD.key() + " is set but " + USERNAME.key() + " is not");
        }
        if (username && !password) {
            throw new IllegalArgumentException(USERNAME.key() + " is set but " + PASSWORD.key() + " is not");
        }
        if (apiKey) {
            builder.setApiKey(config.get(API_KEY));
        } else if (username) {
            builder.setBasicAuth(config.get(USERNAME), config.get(PASSWORD));
        }
        config.getOptional(CA_CERTIFICATE).ifPresent(path -> builder.setCaCertificate(Path.of(path)));
        return builder.build();
    }

    /** Sets the connection, batching, retry and failure-handling options on a sink builder; the emitter is the caller's. */
    public static <T> ElasticsearchSink.Builder<T> applyTo(ElasticsearchSink.Builder<T> sink, ReadableConfig config) {
        long batchBytes = config.get(MAX_BATCH_BYTES).getBytes();
        return sink.setConnection(connection(config))
                .setMaxBatchSize(config.get(MAX_BATCH_SIZE))
                .setMaxBatchSizeInBytes(batchBytes)
                .setMaxRecordSizeInBytes(batchBytes)
                .setMaxInFlightRequests(config.get(MAX_IN_FLIGHT_REQUESTS))
                .setMaxBufferedRequests(config.get(MAX_BUFFERED_REQUESTS))
                .setMaxTimeInBuffer(config.get(MAX_TIME_IN_BUFFER))
                .setBackoff(new Backoff(config.get(INITIAL_BACKOFF), config.get(MAX_BACKOFF)))
                .setFailureHandler(config.get(ON_REJECTED) == OnRejected.FAIL_JOB ? BulkFailureHandlers.failJob()
                        : BulkFailureHandlers.deadLetterIndex(config.get(DEAD_LETTER_INDEX)));
    }
}
