package io.raglog.job;

import io.raglog.assemble.AssemblySettings;
import io.raglog.llm.LlmSettings;
import java.io.Serializable;
import java.time.Duration;

/**
 * Settings of the topology itself.
 *
 * @param maxOutOfOrder how far behind the newest record of a Kafka partition an older one may arrive and still be on
 *     time: several proxy replicas writing one partition, or a Collector's batching, disorder calls by a few seconds
 * @param sourceIdleness a partition with no calls for this long stops holding the watermark back
 * @param endpointMapping the LLM asked, once per pipeline + endpoint, where an unknown API's fields are; with the
 *     offline judge unknown endpoints stay unclassified and are counted
 */
public record TopologySettings(Duration maxOutOfOrder, Duration sourceIdleness, AssemblySettings assembly,
        LlmSettings endpointMapping) implements Serializable {

    public static final TopologySettings DEFAULTS = new TopologySettings(Duration.ofSeconds(5), Duration.ofSeconds(30),
            AssemblySettings.DEFAULTS, LlmSettings.defaults());

    public TopologySettings withAssembly(AssemblySettings a) {
        return new TopologySettings(maxOutOfOrder, sourceIdleness, a, endpointMapping);
    }

    /** The defaults, with the LLM that maps unknown endpoints taken from {@code RAGLOG_LLM_*}. */
    public static TopologySettings fromEnv(java.util.Map<String, String> env) {
        return new TopologySettings(DEFAULTS.maxOutOfOrder(), DEFAULTS.sourceIdleness(), DEFAULTS.assembly(),
                LlmSettings.fromEnv(env));
    }
}
