package io.raglog.calls.mapping;

import io.raglog.config.RaglogOption;
import java.io.Serializable;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.configuration.ReadableConfig;

/**
 * How hard raglog tries to get a field mapping for an unknown endpoint, and what it holds meanwhile. Built from
 * the job's configuration ({@link MappingOptions}), like {@code LlmSettings}.
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

    public static final String MAX_ATTEMPTS = MappingOptions.MAX_ATTEMPTS.variable();
    public static final String RETRY_BACKOFF_MS = MappingOptions.RETRY_BACKOFF_MS.variable();
    public static final String MAX_RETRY_BACKOFF_MS = MappingOptions.MAX_RETRY_BACKOFF_MS.variable();
    public static final String MAX_BUFFERED_CALLS = MappingOptions.MAX_BUFFERED_CALLS.variable();
    public static final String PROPOSAL_TIMEOUT_MS = MappingOptions.PROPOSAL_TIMEOUT_MS.variable();
    public static final String SAMPLE_MAX_CHARS = MappingOptions.SAMPLE_MAX_CHARS.variable();

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

    /** From environment variables alone (tests, tools): the same options as raglog.yaml, by their variables. */
    public static MappingSettings fromEnv(Map<String, String> env) {
        return from(RaglogOption.fromEnvironment(env, MappingOptions.ALL));
    }

    /** From the job's configuration ({@link MappingOptions}). */
    public static MappingSettings from(ReadableConfig c) {
        return new MappingSettings(
                MappingOptions.MAX_ATTEMPTS.get(c),
                Duration.ofMillis(MappingOptions.RETRY_BACKOFF_MS.get(c)),
                Duration.ofMillis(MappingOptions.MAX_RETRY_BACKOFF_MS.get(c)),
                MappingOptions.MAX_BUFFERED_CALLS.get(c),
                Duration.ofMillis(MappingOptions.PROPOSAL_TIMEOUT_MS.get(c)),
                MappingOptions.SAMPLE_MAX_CHARS.get(c));
    }

    /** The wait after the {@code rejections}-th rejected proposal of an endpoint. */
    public Duration backoffAfter(int rejections) {
        long base = retryBackoff.toMillis();
        long ceiling = maxRetryBackoff.toMillis();
        long wait = base << Math.min(Math.max(rejections - 1, 0), 20);
        return Duration.ofMillis(Math.min(ceiling, wait));
    }
}
