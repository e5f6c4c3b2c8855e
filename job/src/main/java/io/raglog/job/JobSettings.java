package io.raglog.job;

import io.raglog.checkstage.ChecksSettings;
import io.raglog.feedback.FeedbackSettings;
import io.raglog.monitor.SamplingPolicy;
import io.raglog.reask.ReAskSettings;
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
 * @param feedback how user feedback joins verdicts; null when feedback is not read
 */
public record JobSettings(TopologySettings topology, ChecksSettings checks, BundleLocation bundle,
        SamplingPolicy sampling, Duration faultRateWindow, FeedbackSettings feedback) implements Serializable {

    /** Settings without feedback: the job reads no feedback topic. */
    public JobSettings(TopologySettings topology, ChecksSettings checks, BundleLocation bundle,
            SamplingPolicy sampling, Duration faultRateWindow) {
        this(topology, checks, bundle, sampling, faultRateWindow, null);
    }

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
                SamplingPolicy.from(c), JobOptions.FAULT_RATE_WINDOW.get(c), feedback(c));
    }

    private static FeedbackSettings feedback(ReadableConfig c) {
        if (!JobOptions.FEEDBACK_ENABLED.get(c)) {
            return null;
        }
        ReAskSettings reAsks = JobOptions.FEEDBACK_RE_ASKS.get(c) ? ReAskSettings.defaults().withWindows(
                JobOptions.FEEDBACK_RE_ASK_WINDOW.get(c), JobOptions.FEEDBACK_RE_ASK_WINDOW_WITHOUT_SESSION.get(c))
                : null;
        return new FeedbackSettings(JobOptions.FEEDBACK_WAIT_FOR_VERDICT.get(c), JobOptions.FEEDBACK_KEEP_VERDICT.get(c),
                JobOptions.FEEDBACK_QUESTION_WINDOW.get(c), reAsks);
    }

    public JobSettings withBundle(BundleLocation location) {
        return new JobSettings(topology, checks, location, sampling, faultRateWindow, feedback);
    }

    public JobSettings withChecks(ChecksSettings newChecks) {
        return new JobSettings(topology, newChecks, bundle, sampling, faultRateWindow, feedback);
    }

    public JobSettings withFeedback(FeedbackSettings settings) {
        return new JobSettings(topology, checks, bundle, sampling, faultRateWindow, settings);
    }

    public JobSettings withSampling(SamplingPolicy policy) {
        return new JobSettings(topology, checks, bundle, policy, faultRateWindow, feedback);
    }
}
