package io.raglog.ingest;

/**
 * One message as it arrived, before anything was decoded: kept whole so that a message raglog cannot use reaches the
 * dead-letter topic byte for byte.
 *
 * @param origin the Kafka topic, or the file path in replay
 * @param partition the Kafka partition, -1 for a file
 * @param offset the Kafka offset, or the 1-based line number in a file
 */
public record RawMessage(String origin, int partition, long offset, byte[] payload) {}
