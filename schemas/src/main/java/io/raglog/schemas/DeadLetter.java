package io.raglog.schemas;

import java.time.Instant;

/**
 * A message raglog could not use, with why: written to {@code raglog.dlq} so nothing is dropped silently.
 *
 * @param origin where it came from: a Kafka topic, or a file path in replay
 * @param partition Kafka partition, -1 for files
 * @param offset Kafka offset, or the line number in a file
 * @param payload the original bytes, as UTF-8 text when they are valid UTF-8; credentials in them (an Authorization
 *     header's token, an API key) replaced by {@code REDACTED}
 * @param payloadBase64 the original bytes, base64, when they are not valid UTF-8 (then payload is null); credentials
 *     redacted likewise. Either keeps the first 128 KiB of a larger message, and the reason says so.
 */
public record DeadLetter(String schema, String origin, int partition, long offset, String reason,
        Instant receivedAt, String payload, String payloadBase64) {}
