package io.raglog.calls.mapping;

import java.io.Serializable;
import java.time.Duration;
import java.util.Map;

/**
 * How hard raglog tries to get a field mapping for an unknown endpoint, and what it holds meanwhile. Built from
 * environment variables (a map, so tests pass their own), like {@code LlmSettings}.
 *
 * @param maxAttempts proposals per endpoint before it is given up (its calls then stay unclassified, counted)
 * @param retryBackoff the wait after the first rejected proposal; doubles per rejection up to {@code maxRetryBackoff}
 * @param maxBufferedCalls calls of one endpoint held in state while it has no mapping yet; more are counted as
 *     unclassified, so an endpoint the LLM cannot map never grows state without bound
 * @param proposalTimeout one proposal, every HTTP attempt and back-off included: the task thread waits this long at
 *     most, once per endpoint
 * @param sampleMaxChars the sample of a call shown to the model, in characters of JSON, after trimming
 */
public record MappingSettings(int maxAttempts, Duration retryBackoff, Duration maxRetryBackoff, int maxBufferedCalls,
        Duration proposalTimeout, int sampleMaxChars) implements Serializable {

    public static final String MAX_ATTEMPTS = "RAGLOG_MAPPING_MAX_ATTEMPTS";
    public static final String RETRY_BACKOFF_MS = "RAGLOG_MAPPING_RETRY_BACKOFF_MS";
    public static final String MAX_RETRY_BACKOFF_MS = "RAGLOG_MAPPING_MAX_RETRY_BACKOFF_MS";
    public static final String MAX_BUFFERED_CALLS = "RAGLOG_MAPPING_MAX_BUFFERED_CALLS";
    public static final String PROPOSAL_TIMEOUT_MS = "RAGLOG_MAPPING_PROPOSAL_TIMEOUT_MS";
    public static final String SAMPLE_MAX_CHARS = "RAGLOG_MAPPING_SAMPLE_MAX_CHARS";

    public static final MappingSettings DEFAULTS = fromEnv(Map.of());

    public MappingSettings {
        require(maxAttempts > 0, MAX_ATTEMPTS + " must be positive");
        require(maxBufferedCalls >= 0, MAX_BUFFERED_CALLS + " must not be negative");
        require(!proposalTimeout.isNegative() && !proposalTimeout.isZero(), PROPOSAL_TIMEOUT_MS + " must be positive");
        require(sampleMaxChars >= 1_000, SAMPLE_MAX_CHARS + " must be at least 1000");
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    public static MappingSettings fromEnv(Map<String, String> env) {
        return new MappingSettings(
                integer(env, MAX_ATTEMPTS, 3),
                Duration.ofMillis(integer(env, RETRY_BACKOFF_MS, 60_000)),
                Duration.ofMillis(integer(env, MAX_RETRY_BACKOFF_MS, 30 * 60_000)),
                integer(env, MAX_BUFFERED_CALLS, 200),
                Duration.ofMillis(integer(env, PROPOSAL_TIMEOUT_MS, 120_000)),
                integer(env, SAMPLE_MAX_CHARS, 12_000));
    }

    private static int integer(Map<String, String> env, String name, int fallback) {
        String v = env.get(name);
        try {
            return v == null || v.isBlank() ? fallback : Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be an integer, not '" + v + "'", e);
        }
    }

    /** The wait after the {@code rejections}-th rejected proposal of an endpoint. */
    public Duration backoffAfter(int rejections) {
        long base = retryBackoff.toMillis();
        long ceiling = maxRetryBackoff.toMillis();
        long wait = base << Math.min(Math.max(rejections - 1, 0), 20);
        return Duration.ofMillis(Math.min(ceiling, wait));
    }
}
