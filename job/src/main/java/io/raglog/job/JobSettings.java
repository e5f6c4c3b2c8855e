package io.raglog.job;

import io.raglog.checkstage.ChecksSettings;
import io.raglog.monitor.SamplingPolicy;
import io.raglog.score.flink.BundleLocation;
import java.io.Serializable;
import java.time.Duration;

/**
 * Everything the whole job needs beyond its inputs and outputs.
 *
 * @param faultRateWindow the event-time tumbling window fault rates are counted in
 */
public record JobSettings(TopologySettings topology, ChecksSettings checks, BundleLocation bundle,
        SamplingPolicy sampling, Duration faultRateWindow) implements Serializable {

    public static final Duration DEFAULT_FAULT_RATE_WINDOW = Duration.ofMinutes(1);

    /** The embedded default: offline judge (unless RAGLOG_LLM_* says otherwise), shipped bundle, check every run. */
    public static JobSettings defaults() {
        return new JobSettings(TopologySettings.DEFAULTS, ChecksSettings.fromEnv(System.getenv()),
                BundleLocation.classpath(DefaultBundle.RESOURCE), SamplingPolicy.CHECK_EVERYTHING,
                DEFAULT_FAULT_RATE_WINDOW);
    }

    public JobSettings withBundle(BundleLocation location) {
        return new JobSettings(topology, checks, location, sampling, faultRateWindow);
    }

    public JobSettings withChecks(ChecksSettings newChecks) {
        return new JobSettings(topology, newChecks, bundle, sampling, faultRateWindow);
    }

    public JobSettings withSampling(SamplingPolicy policy) {
        return new JobSettings(topology, checks, bundle, policy, faultRateWindow);
    }
}
