package io.raglog.llm;

import io.raglog.config.RaglogOption;
import java.util.List;
import org.apache.flink.configuration.ConfigOptions;

/** raglog.yaml's {@code llm} section and its {@code RAGLOG_LLM_*} variables; they fill {@link LlmSettings}. */
public final class LlmOptions {

    public static final RaglogOption<String> PROVIDER = RaglogOption.of(ConfigOptions.key("llm.provider")
            .stringType().defaultValue("offline")
            .withDescription("Who answers the LLM checks: offline (the deterministic offline judge), openai "
                    + "(any OpenAI-compatible endpoint), anthropic or bedrock (Amazon Bedrock's Converse API)."));
    public static final RaglogOption<String> BASE_URL = RaglogOption.of(ConfigOptions.key("llm.base_url")
            .stringType().noDefaultValue()
            .withDescription("The endpoint; default https://api.openai.com/v1, https://api.anthropic.com/v1 or, for "
                    + "bedrock, https://bedrock-runtime.REGION.amazonaws.com with llm.region or else AWS_REGION."));
    public static final RaglogOption<String> REGION = RaglogOption.of(ConfigOptions.key("llm.region")
            .stringType().noDefaultValue()
            .withDescription("bedrock: the AWS region of the default base URL, and the one signed for when the base "
                    + "URL's host names none; unset: AWS_REGION, else (signing) the AWS SDK's default region chain."));
    public static final RaglogOption<String> MODEL = RaglogOption.of(ConfigOptions.key("llm.model")
            .stringType().noDefaultValue()
            .withDescription("The model (for bedrock a model or inference profile id); required unless the provider "
                    + "is offline."));
    public static final RaglogOption<String> API_KEY = RaglogOption.of(ConfigOptions.key("llm.api_key")
            .stringType().noDefaultValue()
            .withDescription("The API key (environment only, never in raglog.yaml); for bedrock a Bedrock API key, "
                    + "else requests are signed (SigV4) with the AWS SDK's default credential chain."))
            .asSecret();
    public static final RaglogOption<String> API_KEY_FILE = RaglogOption.of(ConfigOptions.key("llm.api_key_file")
            .stringType().noDefaultValue()
            .withDescription("A file holding the API key (a mounted Secret), read when llm.api_key is unset."));
    public static final RaglogOption<String> MODE = RaglogOption.of(ConfigOptions.key("llm.mode")
            .stringType().defaultValue("default")
            .withDescription("default, economy (no statement-by-statement check, about 20% cheaper) or tiered "
                    + "(the bundle's tier gate skips the LLM for runs the cheap checks decide)."));
    public static final RaglogOption<Boolean> ECONOMY = RaglogOption.of(ConfigOptions.key("llm.economy")
            .booleanType().defaultValue(false)
            .withDescription("The older switch for economy mode: true means llm.mode economy."));
    public static final RaglogOption<Integer> CAPACITY = RaglogOption.of(ConfigOptions.key("llm.capacity")
            .intType().defaultValue(16)
            .withDescription("Runs in flight in one async LLM operator instance."));
    public static final RaglogOption<Long> TIMEOUT_MS = RaglogOption.of(ConfigOptions.key("llm.timeout_ms")
            .longType().defaultValue(60_000L)
            .withDescription("One HTTP call, from send to last byte, in milliseconds."));
    public static final RaglogOption<Integer> RETRIES = RaglogOption.of(ConfigOptions.key("llm.retries")
            .intType().defaultValue(3)
            .withDescription("Retries of one check after its first call (429, 5xx, timeouts, malformed replies)."));
    public static final RaglogOption<Long> BACKOFF_MS = RaglogOption.of(ConfigOptions.key("llm.backoff_ms")
            .longType().defaultValue(1_000L)
            .withDescription("The first retry's base delay in milliseconds; doubles per retry, with jitter."));
    public static final RaglogOption<Long> MAX_BACKOFF_MS = RaglogOption.of(ConfigOptions.key("llm.max_backoff_ms")
            .longType().defaultValue(30_000L)
            .withDescription("The longest delay between retries, in milliseconds."));
    public static final RaglogOption<Integer> RUN_RETRIES = RaglogOption.of(ConfigOptions.key("llm.run_retries")
            .intType().defaultValue(1)
            .withDescription("Whole-run retries when every check of the run failed."));
    public static final RaglogOption<Double> REQUESTS_PER_SECOND = RaglogOption.of(
            ConfigOptions.key("llm.requests_per_second").doubleType().defaultValue(0.0)
                    .withDescription("Calls per second per LLM operator instance; 0: no limit."));
    public static final RaglogOption<Integer> MAX_OUTPUT_TOKENS = RaglogOption.of(
            ConfigOptions.key("llm.max_output_tokens").intType().defaultValue(1_024)
                    .withDescription("The most tokens one check's reply may take."));
    public static final RaglogOption<Double> PRICE_INPUT = RaglogOption.of(
            ConfigOptions.key("llm.price_input_per_mtok").doubleType().noDefaultValue()
                    .withDescription("USD per million input tokens; unset: the cost is reported as unknown."));
    public static final RaglogOption<Double> PRICE_OUTPUT = RaglogOption.of(
            ConfigOptions.key("llm.price_output_per_mtok").doubleType().noDefaultValue()
                    .withDescription("USD per million output tokens; unset: the cost is reported as unknown."));

    public static final List<RaglogOption<?>> ALL = List.of(PROVIDER, BASE_URL, REGION, MODEL, API_KEY, API_KEY_FILE,
            MODE, ECONOMY, CAPACITY, TIMEOUT_MS, RETRIES, BACKOFF_MS, MAX_BACKOFF_MS, RUN_RETRIES, REQUESTS_PER_SECOND,
            MAX_OUTPUT_TOKENS, PRICE_INPUT, PRICE_OUTPUT);

    private LlmOptions() {}
}
