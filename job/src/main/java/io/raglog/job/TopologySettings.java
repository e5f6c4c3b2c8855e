package io.raglog.job;

import io.raglog.assemble.AssemblyOptions;
import io.raglog.assemble.AssemblySettings;
import io.raglog.calls.mapping.MappingSettings;
import io.raglog.llm.LlmSettings;
import java.io.Serializable;
import java.time.Duration;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Settings of the topology itself.
 *
 * @param maxOutOfOrder how far behind the newest record of a Kafka partition an older one may arrive and still be on
 *     time: several proxy replicas writing one partition, or a Collector's batching, disorder calls by a few seconds
 * @param sourceIdleness a partition with no calls for this long stops holding the watermark back
 * @param endpointMapping the LLM asked, once per pipeline + endpoint, where an unknown API's fields are; with the
 *     offline judge unknown endpoints stay unclassified and are counted
 * @param mapping how hard that LLM is asked, and what is held meanwhile
 * @param bufferTimeout the longest a record waits in a network buffer between two tasks before it is sent: a
 *     generator call crosses three such edges on its way to a verdict, and at a few dozen runs a second a buffer
 *     seldom fills, so Flink's default (100 ms) would add up to 100 ms at each
 */
public record TopologySettings(Duration maxOutOfOrder, Duration sourceIdleness, AssemblySettings assembly,
        LlmSettings endpointMapping, MappingSettings mapping, Duration bufferTimeout) implements Serializable {

    public static final Duration DEFAULT_BUFFER_TIMEOUT = Duration.ofMillis(10);

    public static final TopologySettings DEFAULTS = new TopologySettings(Duration.ofSeconds(5), Duration.ofSeconds(30),
            AssemblySettings.DEFAULTS, LlmSettings.defaults(), MappingSettings.DEFAULTS, DEFAULT_BUFFER_TIMEOUT);

    public TopologySettings {
        if (bufferTimeout.isNegative()) {
            throw new IllegalArgumentException("the buffer timeout must be 0 (flush every record) or more, not "
                    + bufferTimeout);
        }
    }

    /** With the endpoint mapping's limits and the buffer timeout at their defaults. */
    public TopologySettings(Duration maxOutOfOrder, Duration sourceIdleness, AssemblySettings assembly,
            LlmSettings endpointMapping) {
        this(maxOutOfOrder, sourceIdleness, assembly, endpointMapping, MappingSettings.DEFAULTS,
                DEFAULT_BUFFER_TIMEOUT);
    }

    public TopologySettings withAssembly(AssemblySettings a) {
        return new TopologySettings(maxOutOfOrder, sourceIdleness, a, endpointMapping, mapping, bufferTimeout);
    }

    /** From the job's configuration ({@link AssemblyOptions}, the LLM and mapping options, the buffer timeout). */
    public static TopologySettings from(ReadableConfig c) {
        return new TopologySettings(AssemblyOptions.MAX_OUT_OF_ORDER.get(c), AssemblyOptions.SOURCE_IDLENESS.get(c),
                AssemblySettings.from(c), LlmSettings.from(c), MappingSettings.from(c),
                JobOptions.BUFFER_TIMEOUT.get(c));
    }
}
