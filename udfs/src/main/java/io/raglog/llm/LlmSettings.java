package io.raglog.llm;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * How the LLM checks are answered and how hard the endpoint may be pushed. Built from environment variables (a map,
 * so tests pass their own); the YAML layer feeds the same names.
 *
 * @param apiKey null for endpoints that take none (a local vLLM or Ollama)
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

    public static final String PROVIDER = "RAGLOG_LLM_PROVIDER";
    public static final String BASE_URL = "RAGLOG_LLM_BASE_URL";
    public static final String MODEL = "RAGLOG_LLM_MODEL";
    public static final String API_KEY = "RAGLOG_LLM_API_KEY";
    public static final String API_KEY_FILE = "RAGLOG_LLM_API_KEY_FILE";
    public static final String MODE = "RAGLOG_LLM_MODE";
    /** Older switch for economy mode, still read: {@code true} means {@code RAGLOG_LLM_MODE=economy}. */
    public static final String ECONOMY = "RAGLOG_LLM_ECONOMY";
    public static final String CAPACITY = "RAGLOG_LLM_CAPACITY";
    public static final String TIMEOUT_MS = "RAGLOG_LLM_TIMEOUT_MS";
    public static final String RETRIES = "RAGLOG_LLM_RETRIES";
    public static final String BACKOFF_MS = "RAGLOG_LLM_BACKOFF_MS";
    public static final String MAX_BACKOFF_MS = "RAGLOG_LLM_MAX_BACKOFF_MS";
    public static final String RUN_RETRIES = "RAGLOG_LLM_RUN_RETRIES";
    public static final String RPS = "RAGLOG_LLM_REQUESTS_PER_SECOND";
    public static final String MAX_OUTPUT_TOKENS = "RAGLOG_LLM_MAX_OUTPUT_TOKENS";
    public static final String PRICE_INPUT = "RAGLOG_LLM_PRICE_INPUT_PER_MTOK";
    public static final String PRICE_OUTPUT = "RAGLOG_LLM_PRICE_OUTPUT_PER_MTOK";

    public LlmSettings {
        if (provider != ProviderKind.OFFLINE) {
            require(baseUrl != null && !baseUrl.isBlank(), BASE_URL + " is required for provider " + provider.id());
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

    public static LlmSettings fromEnv(Map<String, String> env) {
        ProviderKind provider = ProviderKind.parse(env.getOrDefault(PROVIDER, "offline"));
        String baseUrl = env.get(BASE_URL);
        if (baseUrl == null && provider == ProviderKind.OPENAI) {
            baseUrl = "https://api.openai.com/v1";
        } else if (baseUrl == null && provider == ProviderKind.ANTHROPIC) {
            baseUrl = "https://api.anthropic.com/v1";
        }
        return new LlmSettings(provider,
                baseUrl == null ? null : baseUrl.replaceAll("/+$", ""),
                env.get(MODEL),
                apiKey(env),
                mode(env),
                integer(env, CAPACITY, 16),
                Duration.ofMillis(integer(env, TIMEOUT_MS, 60_000)),
                integer(env, RETRIES, 3),
                Duration.ofMillis(integer(env, BACKOFF_MS, 1_000)),
                Duration.ofMillis(integer(env, MAX_BACKOFF_MS, 30_000)),
                integer(env, RUN_RETRIES, 1),
                Double.parseDouble(env.getOrDefault(RPS, "0")),
                integer(env, MAX_OUTPUT_TOKENS, 1_024),
                price(env, PRICE_INPUT),
                price(env, PRICE_OUTPUT));
    }

    /** {@code RAGLOG_LLM_MODE} wins; without it {@code RAGLOG_LLM_ECONOMY=true} still selects economy mode. */
    private static LlmMode mode(Map<String, String> env) {
        String mode = env.get(MODE);
        boolean economy = Boolean.parseBoolean(env.getOrDefault(ECONOMY, "false").strip());
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
        return new LlmSettings(provider, baseUrl, model, apiKey, newMode, capacity, callTimeout, retries, backoff,
                maxBackoff, runRetries, requestsPerSecond, maxOutputTokens, inputPricePerMTok, outputPricePerMTok);
    }

    private static Secret apiKey(Map<String, String> env) {
        Secret direct = Secret.of(env.get(API_KEY));
        if (direct != null) {
            return direct;
        }
        String file = env.get(API_KEY_FILE);
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

    private static int integer(Map<String, String> env, String name, int fallback) {
        String v = env.get(name);
        try {
            return v == null || v.isBlank() ? fallback : Integer.parseInt(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be an integer, not '" + v + "'", e);
        }
    }

    private static Double price(Map<String, String> env, String name) {
        String v = env.get(name);
        return v == null || v.isBlank() ? null : Double.valueOf(v.strip());
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
