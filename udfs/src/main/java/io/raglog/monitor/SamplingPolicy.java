package io.raglog.monitor;

import io.raglog.schemas.Run;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.flink.configuration.ReadableConfig;
import java.util.zip.CRC32;

/**
 * Which runs get the (expensive) checks. Deterministic: a run is sampled by a hash of its run id, so a replay of the
 * same calls samples the same runs. Runs with an HTTP error are always checked: they are the ones a person most wants
 * to see. Incomplete runs are never checked (see {@link #sampled}).
 *
 * @param defaultRate share of runs checked for pipelines not listed, 0..1
 * @param pipelineRates per-pipeline shares that override the default
 */
public record SamplingPolicy(double defaultRate, Map<String, Double> pipelineRates) implements Serializable {

    public static final SamplingPolicy CHECK_EVERYTHING = new SamplingPolicy(1.0, Map.of());

    public SamplingPolicy {
        pipelineRates = pipelineRates == null ? Map.of() : Map.copyOf(pipelineRates);
        check(defaultRate, "default");
        pipelineRates.forEach((pipeline, rate) -> check(rate, pipeline));
    }

    private static void check(double rate, String what) {
        if (!(rate >= 0 && rate <= 1)) {
            throw new IllegalArgumentException("sampling rate for " + what + " must be within [0, 1], was " + rate);
        }
    }

    /** From the job's configuration ({@link SamplingOptions}). */
    public static SamplingPolicy from(ReadableConfig c) {
        Map<String, Double> rates = new java.util.TreeMap<>();
        SamplingOptions.PIPELINES.get(c).forEach((pipeline, rate) -> {
            try {
                rates.put(pipeline, Double.valueOf(rate.strip()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(SamplingOptions.PIPELINES.key() + "." + pipeline
                        + " must be a number, not '" + rate + "'", e);
            }
        });
        return new SamplingPolicy(SamplingOptions.DEFAULT_RATE.get(c), rates);
    }

    public double rate(String pipeline) {
        return pipelineRates.getOrDefault(pipeline, defaultRate);
    }

    public boolean alwaysCheck(Run run) {
        return !run.incomplete() && run.httpErrors() != null && !run.httpErrors().isEmpty();
    }

    /**
     * Never an incomplete run: without a generator call there is no answer to judge, and an orphan is no question of
     * its own; checking them cost LLM calls and wrote verdicts about runs that did not happen. They are in
     * {@code raglog.runs} with their reason.
     */
    public boolean sampled(Run run) {
        return !run.incomplete() && (alwaysCheck(run) || unitHash(run.runId()) < rate(run.pipeline()));
    }

    /** A stable value in [0, 1) from the run id. */
    static double unitHash(String runId) {
        CRC32 crc = new CRC32();
        crc.update(runId.getBytes(StandardCharsets.UTF_8));
        return crc.getValue() / (double) (1L << 32);
    }
}
