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
 */
public record TopologySettings(Duration maxOutOfOrder, Duration sourceIdleness, AssemblySettings assembly,
        LlmSettings endpointMapping, MappingSettings mapping) implements Serializable {

    public static final TopologySettings DEFAULTS = new TopologySettings(Duration.ofSeconds(5), Duration.ofSeconds(30),
            AssemblySettings.DEFAULTS, LlmSettings.defaults(), MappingSettings.DEFAULTS);

    /** With the endpoint mapping's limits at their defaults. */
    public TopologySettings(Duration maxOutOfOrder, Duration sourceIdleness, AssemblySettings assembly,
            LlmSettings endpointMapping) {
        this(maxOutOfOrder, sourceIdleness, assembly, endpointMapping, MappingSettings.DEFAULTS);
    }

    public TopologySettings withAssembly(AssemblySettings a) {
        return new TopologySettings(maxOutOfOrder, sourceIdleness, a, endpointMapping, mapping);
    }

    /** From the job's configuration ({@link AssemblyOptions}, the LLM and mapping options). */
    public static TopologySettings from(ReadableConfig c) {
        return new TopologySettings(AssemblyOptions.MAX_OUT_OF_ORDER.get(c), AssemblyOptions.SOURCE_IDLENESS.get(c),
                AssemblySettings.from(c), LlmSettings.from(c), MappingSettings.from(c));
    }
}
