package io.raglog.calls.mapping;

import io.raglog.config.RaglogOption;
import java.util.List;
import org.apache.flink.configuration.ConfigOptions;

/** raglog.yaml's {@code mapping} section and its {@code RAGLOG_MAPPING_*} variables; they fill {@link MappingSettings}. */
public final class MappingOptions {

    public static final RaglogOption<Integer> MAX_ATTEMPTS = RaglogOption.of(ConfigOptions.key("mapping.max_attempts")
            .intType().defaultValue(3)
            .withDescription("Field-mapping proposals per unknown endpoint before it is given up (its calls then "
                    + "stay unclassified, counted)."));
    public static final RaglogOption<Long> RETRY_BACKOFF_MS = RaglogOption.of(
            ConfigOptions.key("mapping.retry_backoff_ms").longType().defaultValue(60_000L)
                    .withDescription("The wait after the first rejected proposal, in milliseconds; doubles per "
                            + "rejection."));
    public static final RaglogOption<Long> MAX_RETRY_BACKOFF_MS = RaglogOption.of(
            ConfigOptions.key("mapping.max_retry_backoff_ms").longType().defaultValue(30 * 60_000L)
                    .withDescription("The longest wait between proposals, in milliseconds."));
    public static final RaglogOption<Integer> MAX_BUFFERED_CALLS = RaglogOption.of(
            ConfigOptions.key("mapping.max_buffered_calls").intType().defaultValue(200)
                    .withDescription("Calls of one endpoint held while it has no mapping yet; more are counted as "
                            + "unclassified."));
    public static final RaglogOption<Long> PROPOSAL_TIMEOUT_MS = RaglogOption.of(
            ConfigOptions.key("mapping.proposal_timeout_ms").longType().defaultValue(120_000L)
                    .withDescription("One proposal, every HTTP attempt and back-off included, in milliseconds."));
    public static final RaglogOption<Integer> SAMPLE_MAX_CHARS = RaglogOption.of(
            ConfigOptions.key("mapping.sample_max_chars").intType().defaultValue(12_000)
                    .withDescription("The sample of a call shown to the model, in characters of JSON (at least "
                            + "1000)."));

    public static final List<RaglogOption<?>> ALL = List.of(MAX_ATTEMPTS, RETRY_BACKOFF_MS, MAX_RETRY_BACKOFF_MS,
            MAX_BUFFERED_CALLS, PROPOSAL_TIMEOUT_MS, SAMPLE_MAX_CHARS);

    private MappingOptions() {}
}
