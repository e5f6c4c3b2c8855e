package io.raglog.job;

import io.raglog.assemble.AssemblySettings;
import java.io.Serializable;
import java.time.Duration;

/**
 * Settings of the topology itself.
 *
 * @param maxOutOfOrder how far behind the newest call an older call may arrive and still be on time; a proxy fleet
 *     flushing batches, or Kafka partitions read at different speeds, put calls out of order by a few seconds
 * @param sourceIdleness a partition with no calls for this long stops holding the watermark back
 */
public record TopologySettings(Duration maxOutOfOrder, Duration sourceIdleness, AssemblySettings assembly)
        implements Serializable {

    public static final TopologySettings DEFAULTS =
            new TopologySettings(Duration.ofSeconds(5), Duration.ofSeconds(30), AssemblySettings.DEFAULTS);
}
