package io.raglog.assemble;

import io.raglog.config.RaglogOption;
import java.time.Duration;
import java.util.List;
import org.apache.flink.configuration.ConfigOptions;
import org.apache.flink.configuration.ReadableConfig;

/**
 * raglog.yaml's {@code assembly} section: when runs close ({@link AssemblySettings}) and how far event time may run
 * ahead (the topology's watermarks).
 */
public final class AssemblyOptions {

    public static final RaglogOption<Duration> GRACE = RaglogOption.of(ConfigOptions.key("assembly.grace")
            .durationType().defaultValue(AssemblySettings.DEFAULTS.grace())
            .withDescription("Wait after the generator call for stragglers of its run (event time)."));
    public static final RaglogOption<Duration> RUN_TIMEOUT = RaglogOption.of(ConfigOptions.key("assembly.run_timeout")
            .durationType().defaultValue(AssemblySettings.DEFAULTS.runTimeout())
            .withDescription("Calls no generator claims within this time are flushed as an incomplete run."));
    public static final RaglogOption<Duration> MAX_OUT_OF_ORDER = RaglogOption.of(
            ConfigOptions.key("assembly.max_out_of_order").durationType().defaultValue(Duration.ofSeconds(5))
                    .withDescription("How far behind the newest record of a partition an older one may arrive and "
                            + "still be on time."));
    public static final RaglogOption<Duration> SOURCE_IDLENESS = RaglogOption.of(
            ConfigOptions.key("assembly.source_idleness").durationType().defaultValue(Duration.ofSeconds(30))
                    .withDescription("A partition without records for this long stops holding the watermark back."));
    public static final RaglogOption<String> GENERATOR_WAIT = RaglogOption.of(
            ConfigOptions.key("assembly.generator_wait").stringType().defaultValue("PT0.3S")
                    .withDescription("A live generator call closes its run this long after it arrives (processing "
                            + "time); negative: event time only."));
    public static final RaglogOption<Duration> GENERATOR_WAIT_MAX_LAG = RaglogOption.of(
            ConfigOptions.key("assembly.generator_wait_max_lag").durationType()
                    .defaultValue(AssemblySettings.DEFAULT_GENERATOR_WAIT_MAX_LAG)
                    .withDescription("Older generator records (a backlog being read) wait for the watermark instead."));

    public static final List<RaglogOption<?>> ALL = List.of(GRACE, RUN_TIMEOUT, MAX_OUT_OF_ORDER, SOURCE_IDLENESS,
            GENERATOR_WAIT, GENERATOR_WAIT_MAX_LAG);

    private AssemblyOptions() {}

    /** {@code assembly.generator_wait}, negative for "off". */
    static Duration generatorWait(ReadableConfig c) {
        return RaglogOption.signedDuration(GENERATOR_WAIT.key() + " (" + GENERATOR_WAIT.variable() + ")",
                GENERATOR_WAIT.get(c));
    }
}
