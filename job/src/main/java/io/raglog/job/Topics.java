package io.raglog.job;

import java.io.Serializable;
import java.util.List;

/**
 * The Kafka topics raglog reads and writes.
 *
 * @param faults the debugging queue: flagged runs only
 * @param verdicts every verdict, flagged or not
 * @param drift embedding model changes, retrieval score shifts and index/query model mismatches (raglog.drift/v1)
 * @param evaluations every verdict as OpenTelemetry GenAI evaluation events, one {@code ExportLogsServiceRequest} per
 *     verdict in protobuf (what a Collector's Kafka receiver reads with encoding {@code otlp_proto})
 * @param feedback user feedback in (raglog.feedback/v1: thumbs, scores, comments, corrections, re-asks)
 * @param runFeedback each feedback record joined with its run's verdict, or not (raglog.run-feedback/v1)
 * @param thresholds per-pipeline threshold overrides (raglog.thresholds/v1), keyed by pipeline on a compacted topic:
 *     the job reads it from the start and broadcasts it into scoring
 */
public record Topics(String calls, String otlp, String runs, String deadLetters, String verdicts, String faults,
        String faultRates, String drift, String evaluations, String feedback, String runFeedback, String thresholds)
        implements Serializable {

    public static final Topics DEFAULTS = new Topics("raglog.calls", "raglog.otlp", "raglog.runs", "raglog.dlq",
            "raglog.verdicts", "raglog.faults", "raglog.fault-rates", "raglog.drift", "raglog.evaluations",
            "raglog.feedback", "raglog.run-feedback", "raglog.thresholds");

    /**
     * A configuration written before the drift, evaluations, feedback or thresholds topics existed names them beside
     * the fault rates.
     */
    public Topics {
        drift = drift != null ? drift : beside(faultRates, "drift");
        evaluations = evaluations != null ? evaluations : beside(faultRates, "evaluations");
        feedback = feedback != null ? feedback : beside(faultRates, "feedback");
        runFeedback = runFeedback != null ? runFeedback : beside(faultRates, "run-feedback");
        thresholds = thresholds != null ? thresholds : beside(faultRates, "thresholds");
    }

    /** The topics before the feedback and thresholds topics existed: they are named beside the fault rates. */
    public Topics(String calls, String otlp, String runs, String deadLetters, String verdicts, String faults,
            String faultRates, String drift, String evaluations) {
        this(calls, otlp, runs, deadLetters, verdicts, faults, faultRates, drift, evaluations, null, null, null);
    }

    /** The topics before the evaluations topic existed: it is named beside the fault rates. */
    public Topics(String calls, String otlp, String runs, String deadLetters, String verdicts, String faults,
            String faultRates, String drift) {
        this(calls, otlp, runs, deadLetters, verdicts, faults, faultRates, drift, null);
    }

    /** The topics before the drift topic existed: it is named beside the fault rates ({@code <prefix>.drift}). */
    public Topics(String calls, String otlp, String runs, String deadLetters, String verdicts, String faults,
            String faultRates) {
        this(calls, otlp, runs, deadLetters, verdicts, faults, faultRates, null);
    }

    /** {@code <prefix>.<name>} beside {@code <prefix>.fault-rates}, else {@code raglog.<name>}. */
    private static String beside(String faultRates, String name) {
        return faultRates != null && faultRates.endsWith(".fault-rates")
                ? faultRates.substring(0, faultRates.length() - ".fault-rates".length()) + "." + name
                : "raglog." + name;
    }

    /** Topics named after a prefix, for tests that must not share topics. */
    public static Topics prefixed(String prefix) {
        return new Topics(prefix + ".calls", prefix + ".otlp", prefix + ".runs", prefix + ".dlq",
                prefix + ".verdicts", prefix + ".faults", prefix + ".fault-rates", prefix + ".drift",
                prefix + ".evaluations", prefix + ".feedback", prefix + ".run-feedback", prefix + ".thresholds");
    }

    public List<String> all() {
        return List.of(calls, otlp, runs, deadLetters, verdicts, faults, faultRates, drift, evaluations, feedback,
                runFeedback, thresholds);
    }
}
