package io.raglog.llm;

import io.raglog.config.RaglogOption;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.configuration.ReadableConfig;

/**
 * How the LLM checks are answered and how hard the endpoint may be pushed. Built from the job's configuration
 * ({@link LlmOptions}: raglog.yaml's {@code llm} section and the {@code RAGLOG_LLM_*} variables).
 *
 * @param region bedrock: {@code llm.region}, the AWS region for a base URL whose host names none; null when unset
 * @param apiKey null for endpoints that take none (a local vLLM or Ollama); for bedrock, null signs requests with
 *     the AWS credentials of the default chain instead
 * @param mode default, economy (no support check) or tiered (the bundle's tier gate skips the LLM for runs the cheap
 *     checks decide); {@code RAGLOG_LLM_MODE}, or the older {@code RAGLOG_LLM_ECONOMY=true} for economy
 * @param capacity runs in flight in one async operator instance (each issues up to five calls at once)
 * @param callTimeout one HTTP call, from send to last byte
 * @param retries retries of one check after its first call (429, 5xx, timeouts, malformed replies)
 * @param backoff the first retry's base delay; doubles per retry, with jitter, up to {@code maxBackoff}
 * @param runRetries whole-run retries by Flink's AsyncRetryStrategy when every check of the run failed
 * @param requestsPerSecond client-side limit per operator instance; 0 = none
 * @param inputPricePerMTok USD per million input tokens; null = unknown, and the cost is then reported as unknown
 */
public record LlmSettings(
        ProviderKind provider,
        String baseUrl,
        String region,
        String model,
        Secret apiKey,
        LlmMode mode,
        int capacity,
        Duration callTimeout,
        int retries,
        Duration backoff,
        Duration maxBackoff,
        int runRetries,
        double requestsPerSecond,
        int maxOutputTokens,
        Double inputPricePerMTok,
        Double outputPricePerMTok) implements Serializable {

    public static final String PROVIDER = LlmOptions.PROVIDER.variable();
    public static final String BASE_URL = LlmOptions.BASE_URL.variable();
    public static final String REGION = LlmOptions.REGION.variable();
    public static final String MODEL = LlmOptions.MODEL.variable();
    public static final String API_KEY = LlmOptions.API_KEY.variable();
    public static final String API_KEY_FILE = LlmOptions.API_KEY_FILE.variable();
    public static final String MODE = LlmOptions.MODE.variable();
    /** Older switch for economy mode, still read: {@code true} means {@code RAGLOG_LLM_MODE=economy}. */
    public static final String ECONOMY = LlmOptions.ECONOMY.variable();
    public static final String CAPACITY = LlmOptions.CAPACITY.variable();
    public static final String TIMEOUT_MS = LlmOptions.TIMEOUT_MS.variable();
    public static final String RETRIES = LlmOptions.RETRIES.variable();
    public static final String BACKOFF_MS = LlmOptions.BACKOFF_MS.variable();
    public static final String MAX_BACKOFF_MS = LlmOptions.MAX_BACKOFF_MS.variable();
    public static final String RUN_RETRIES = LlmOptions.RUN_RETRIES.variable();
    public static final String RPS = LlmOptions.REQUESTS_PER_SECOND.variable();
    public static final String MAX_OUTPUT_TOKENS = LlmOptions.MAX_OUTPUT_TOKENS.variable();
    public static final String PRICE_INPUT = LlmOptions.PRICE_INPUT.variable();
    public static final String PRICE_OUTPUT = LlmOptions.PRICE_OUTPUT.variable();

    public LlmSettings {
        require(region == null || BedrockRegion.isRegion(region),
                REGION + " must be an AWS region such as us-east-1, not '" + region + "'");
        if (provider != ProviderKind.OFFLINE) {
            require(baseUrl != null && !baseUrl.isBlank(), BASE_URL + " is required for provider " + provider.id()
                    + (provider == ProviderKind.BEDROCK ? " (or " + REGION + ", or AWS_REGION)" : ""));
            require(model != null && !model.isBlank(), MODEL + " is required for provider " + provider.id());
        }
        require(mode != null, MODE + " must be set");
        require(capacity > 0, CAPACITY + " must be positive");
        require(retries >= 0 && runRetries >= 0, "retries must not be negative");
        require(requestsPerSecond >= 0, RPS + " must not be negative");
    }

    private static void require(boolean ok, String message) {
        if (!ok) {
            throw new IllegalArgumentException(message);
        }
    }

    /** The embedded default: the offline judge, nothing leaves the machine. */
    public static LlmSettings defaults() {
        return fromEnv(Map.of());
    }

    /** From environment variables alone (tests, tools): the same options as raglog.yaml, by their variables. */
    public static LlmSettings fromEnv(Map<String, String> env) {
        return from(RaglogOption.fromEnvironment(env, LlmOptions.ALL));
    }

    /** From the job's configuration ({@link LlmOptions}). */
    public static LlmSettings from(ReadableConfig c) {
        ProviderKind provider = ProviderKind.parse(LlmOptions.PROVIDER.get(c));
        String region = blankToNull(LlmOptions.REGION.get(c));
        String baseUrl = blankToNull(LlmOptions.BASE_URL.get(c));
        if (baseUrl == null) {
            baseUrl = defaultBaseUrl(provider, region);
        }
        return new LlmSettings(provider,
                baseUrl == null ? null : baseUrl.replaceAll("/+$", ""),
                region,
                LlmOptions.MODEL.get(c),
                apiKey(c),
                mode(c),
                LlmOptions.CAPACITY.get(c),
                Duration.ofMillis(LlmOptions.TIMEOUT_MS.get(c)),
                LlmOptions.RETRIES.get(c),
                Duration.ofMillis(LlmOptions.BACKOFF_MS.get(c)),
                Duration.ofMillis(LlmOptions.MAX_BACKOFF_MS.get(c)),
                LlmOptions.RUN_RETRIES.get(c),
                LlmOptions.REQUESTS_PER_SECOND.get(c),
                LlmOptions.MAX_OUTPUT_TOKENS.get(c),
                LlmOptions.PRICE_INPUT.get(c),
                LlmOptions.PRICE_OUTPUT.get(c));
    }

    /** The vendor's own endpoint; for bedrock, the runtime endpoint of {@code llm.region} or AWS_REGION, if either. */
    private static String defaultBaseUrl(ProviderKind provider, String region) {
        return switch (provider) {
            case OPENAI -> "https://api.openai.com/v1";
            case ANTHROPIC -> "https://api.anthropic.com/v1";
            case BEDROCK -> {
                String r = region != null ? region : BedrockRegion.fromEnvironment();
                yield r == null || !BedrockRegion.isRegion(r) ? null : BedrockRegion.runtimeUrl(r);
            }
            case OFFLINE -> null;
        };
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.strip();
    }

    /** {@code llm.mode} decides; {@code llm.economy: true} (the older switch) still selects economy mode. */
    private static LlmMode mode(ReadableConfig c) {
        String mode = LlmOptions.MODE.get(c);
        boolean economy = LlmOptions.ECONOMY.get(c);
        if (mode != null && !mode.isBlank()) {
            LlmMode parsed = LlmMode.parse(mode);
            // "default" is what a config file or chart writes when nobody chose: the older switch still means economy
            require(!economy || parsed != LlmMode.TIERED,
                    ECONOMY + "=true contradicts " + MODE + "=tiered; set one of them");
            return economy ? LlmMode.ECONOMY : parsed;
        }
        return economy ? LlmMode.ECONOMY : LlmMode.DEFAULT;
    }

    /** Economy mode: the support check is never asked. */
    public boolean economy() {
        return mode == LlmMode.ECONOMY;
    }

    /** Tiered mode: the tier gate may let a run bypass the LLM checks. */
    public boolean tiered() {
        return mode == LlmMode.TIERED;
    }

    /** The same settings in another mode. */
    public LlmSettings withMode(LlmMode newMode) {
        return new LlmSettings(provider, baseUrl, region, model, apiKey, newMode, capacity, callTimeout, retries,
                backoff, maxBackoff, runRetries, requestsPerSecond, maxOutputTokens, inputPricePerMTok,
                outputPricePerMTok);
    }

    private static Secret apiKey(ReadableConfig c) {
        Secret direct = Secret.of(LlmOptions.API_KEY.get(c));
        if (direct != null) {
            return direct;
        }
        String file = LlmOptions.API_KEY_FILE.get(c);
        if (file == null || file.isBlank()) {
            return null;
        }
        try {
            return Secret.of(Files.readString(Path.of(file)));
        } catch (IOException e) {
            // The path is configuration, not the secret: safe to name.
            throw new UncheckedIOException("cannot read " + API_KEY_FILE + " " + file, e);
        }
    }

    /**
     * The async operator's timeout for one run: every attempt of a check may time out and back off. Past it the run is
     * emitted with its LLM features missing ({@code degraded}), never dropped.
     */
    public Duration runTimeout() {
        long attempts = retries + 1L;
        long perCheck = callTimeout.toMillis() * attempts + maxBackoff.toMillis() * retries;
        return Duration.ofMillis(perCheck * (runRetries + 1L) + maxBackoff.toMillis() * runRetries + 5_000);
    }

    /** Who answers, as recorded next to every number it produced. */
    public String judgeId() {
        return provider == ProviderKind.OFFLINE ? OfflineJudge.ID : provider.id() + ":" + model;
    }

    /** Cost of a call's tokens; null when either price is unknown. */
    public Double cost(long inputTokens, long outputTokens) {
        if (provider == ProviderKind.OFFLINE) {
            return 0.0;
        }
        if (inputPricePerMTok == null || outputPricePerMTok == null) {
            return null;
        }
        return (inputTokens * inputPricePerMTok + outputTokens * outputPricePerMTok) / 1_000_000.0;
    }
}
