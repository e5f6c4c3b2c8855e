package io.raglog.job;

import io.raglog.assemble.AssemblySettings;
import java.io.Serializable;
import java.time.Duration;

/**
 * Settings of the topology itself.
 *
 * @param maxOutOfOrder how far behind the newest record of a Kafka partition an older one may arrive and still be on
 *     time: several proxy replicas writing one partition, or a Collector's batching, disorder calls by a few seconds
 * @param sourceIdleness a partition with no calls for this long stops holding the watermark back
 */
public record TopologySettings(Duration maxOutOfOrder, Duration sourceIdleness, AssemblySettings assembly)
        implements Serializable {

    public static final TopologySettings DEFAULTS =
            new TopologySettings(Duration.ofSeconds(5), Duration.ofSeconds(30), AssemblySettings.DEFAULTS);
}
