package io.raglog.monitor;

import io.raglog.config.RaglogOption;
import java.util.List;
import java.util.Map;
import org.apache.flink.configuration.ConfigOptions;

/** raglog.yaml's {@code sampling} section; it fills {@link SamplingPolicy}. */
public final class SamplingOptions {

    public static final RaglogOption<Double> DEFAULT_RATE = RaglogOption.of(ConfigOptions.key("sampling.default_rate")
            .doubleType().defaultValue(1.0)
            .withDescription("Share of runs checked (0..1); runs with HTTP errors always are, incomplete runs "
                    + "never."))
            .withVariable("RAGLOG_SAMPLING_RATE");
    public static final RaglogOption<Map<String, String>> PIPELINES = RaglogOption.of(
            ConfigOptions.key("sampling.pipelines").mapType().defaultValue(Map.of())
                    .withDescription("Per-pipeline shares that override the default, e.g. support-bot: 0.1 "
                            + "(environment: support-bot:0.1,other:0.5)."));

    public static final List<RaglogOption<?>> ALL = List.of(DEFAULT_RATE, PIPELINES);

    private SamplingOptions() {}
}
