package io.raglog.job;

import io.raglog.checkstage.ChecksSettings;
import io.raglog.monitor.SamplingPolicy;
import io.raglog.score.flink.BundleLocation;
import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.apache.flink.configuration.ReadableConfig;

/**
 * Everything the whole job needs beyond its inputs and outputs.
 *
 * @param faultRateWindow the event-time tumbling window fault rates are counted in
 */
public record JobSettings(TopologySettings topology, ChecksSettings checks, BundleLocation bundle,
        SamplingPolicy sampling, Duration faultRateWindow) implements Serializable {

    public static final Duration DEFAULT_FAULT_RATE_WINDOW = Duration.ofMinutes(1);

    /**
     * The embedded default with this process's environment applied, as {@code run} would read it without a
     * raglog.yaml: offline judge, shipped bundle, every run checked, unless a {@code RAGLOG_*} variable says otherwise.
     */
    public static JobSettings defaults() {
        return fromEnvironment(System.getenv());
    }

    /** The defaults overridden by {@code env} (the documented variables of {@link RaglogConfig#OPTIONS}). */
    public static JobSettings fromEnvironment(Map<String, String> env) {
        try {
            return RaglogConfig.load(null, env).jobSettings();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // no file is read
        }
    }

    /** From the job's configuration (see {@link RaglogConfig}). */
    public static JobSettings from(ReadableConfig c) {
        String bundle = JobOptions.BUNDLE.get(c);
        return new JobSettings(TopologySettings.from(c), ChecksSettings.from(c),
                bundle == null ? BundleLocation.classpath(DefaultBundle.RESOURCE)
                        : BundleLocation.directory(Path.of(bundle)),
                SamplingPolicy.from(c), JobOptions.FAULT_RATE_WINDOW.get(c));
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
