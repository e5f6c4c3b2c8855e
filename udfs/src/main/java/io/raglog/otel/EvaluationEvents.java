package io.raglog.otel;

import com.google.protobuf.ByteString;
import com.google.protobuf.UnsafeByteOperations;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.InstrumentationScope;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.opentelemetry.proto.resource.v1.Resource;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageVerdict;
import io.raglog.schemas.ThresholdsUsed;
import io.raglog.schemas.TraceLink;
import io.raglog.schemas.Verdict;
import java.time.Instant;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A verdict as OpenTelemetry GenAI evaluation events, one {@code gen_ai.evaluation.result} per present stage, so
 * the verdict lands beside the pipeline's own traces in whatever backend already holds them.
 *
 * <p>The shape follows the GenAI semantic conventions (development status), as checked in
 * open-telemetry/semantic-conventions-genai {@code model/gen-ai/events.yaml} (event {@code gen_ai.evaluation.result}:
 * {@code gen_ai.evaluation.name} required; {@code gen_ai.evaluation.score.value} and
 * {@code gen_ai.evaluation.score.label} conditionally required; {@code gen_ai.evaluation.explanation} recommended;
 * {@code gen_ai.response.id} recommended when available; "SHOULD be parented to GenAI operation span being evaluated
 * when possible") and the general event conventions (opentelemetry.io/docs/specs/semconv/general/events: an event is
 * a {@code LogRecord} whose {@code EventName} field names it, the deprecated {@code event.name} attribute is not set;
 * events SHOULD NOT use the body and SHOULD specify a severity number).
 *
 * <p>Per event: {@code event_name} {@value #EVENT_NAME}; trace and span id of the stage's span when the run came in as
 * OTLP spans ({@link Verdict#trace()}); {@code gen_ai.evaluation.name} {@code raglog.<stage>}; score value the stage's
 * fault probability; score label {@value #FAULT} when the stage is flagged, else {@value #SOUND}; explanation the
 * verdict's evidence (or the probability against its threshold when there is none); severity WARN for a fault, INFO
 * otherwise; raglog's own attributes under {@code raglog.*}. {@code gen_ai.response.id} is not set: runs do not keep
 * the generator's response id. Resource {@code service.name} is the pipeline, scope {@value #SCOPE}.
 */
public final class EvaluationEvents {

    public static final String EVENT_NAME = "gen_ai.evaluation.result";
    public static final String SCOPE = "raglog";
    public static final String FAULT = "fault";
    public static final String SOUND = "sound";

    public static final String SERVICE_NAME = "service.name";
    public static final String EVALUATION_NAME = "gen_ai.evaluation.name";
    public static final String SCORE_VALUE = "gen_ai.evaluation.score.value";
    public static final String SCORE_LABEL = "gen_ai.evaluation.score.label";
    public static final String EXPLANATION = "gen_ai.evaluation.explanation";
    public static final String RUN_ID = "raglog.run_id";
    public static final String THRESHOLD = "raglog.threshold";
    public static final String REPAIR_HINT = "raglog.repair_hint";
    public static final String MODEL_BUNDLE = "raglog.model_bundle";
    /** Which thresholds decided (verdict v4): the bundle id, or a pipeline override's {@code PIPELINE/vN}. */
    public static final String THRESHOLDS_VERSION = "raglog.thresholds.version";
    public static final String THRESHOLDS_SOURCE = "raglog.thresholds.source";

    private static final HexFormat HEX = HexFormat.of();

    // Immutable protobuf pieces every verdict's events share, built once rather than per event: with the per-attribute
    // KeyValue + AnyValue builds they were the second largest part of the evaluation events' allocation (JFR, issue
    // #27). The bytes written are the same: a message serializes by its content, not by where it was built.
    private static final Stage[] STAGES = Stage.values();
    private static final String[] EVALUATION_NAMES = new String[STAGES.length];
    private static final KeyValue[] EVALUATION_NAME_ATTRIBUTES = new KeyValue[STAGES.length];

    static {
        for (Stage stage : STAGES) {
            EVALUATION_NAMES[stage.ordinal()] = SCOPE + "." + stage.id();
            EVALUATION_NAME_ATTRIBUTES[stage.ordinal()] = string(EVALUATION_NAME, EVALUATION_NAMES[stage.ordinal()]);
        }
    }

    private static final InstrumentationScope RAGLOG_SCOPE = InstrumentationScope.newBuilder().setName(SCOPE).build();
    private static final KeyValue FAULT_LABEL = string(SCORE_LABEL, FAULT);
    private static final KeyValue SOUND_LABEL = string(SCORE_LABEL, SOUND);
    private static final RepeatedValues<Resource> PIPELINES =
            new RepeatedValues<>(pipeline -> Resource.newBuilder().addAttributes(string(SERVICE_NAME, pipeline)).build());
    private static final RepeatedValues<KeyValue> MODEL_BUNDLES =
            new RepeatedValues<>(bundle -> string(MODEL_BUNDLE, bundle));
    private static final RepeatedValues<KeyValue> THRESHOLDS_VERSIONS =
            new RepeatedValues<>(version -> string(THRESHOLDS_VERSION, version));
    private static final RepeatedValues<KeyValue> THRESHOLDS_SOURCES =
            new RepeatedValues<>(source -> string(THRESHOLDS_SOURCE, source));
    /** Per stage, the last threshold attribute written: a stage's threshold is the same run after run. */
    private static final AtomicReferenceArray<KeyValue> LAST_THRESHOLDS = new AtomicReferenceArray<>(STAGES.length);

    private EvaluationEvents() {}

    /** The evaluation name of a stage's result: {@code raglog.retrieve}, ... */
    public static String evaluationName(Stage stage) {
        return EVALUATION_NAMES[stage.ordinal()];
    }

    /** One request, one resource (the pipeline), one scope, one event per present stage in pipeline order. */
    public static ExportLogsServiceRequest of(Verdict verdict) {
        ScopeLogs.Builder scope = ScopeLogs.newBuilder().setScope(RAGLOG_SCOPE);
        Shared shared = new Shared(verdict);
        for (Stage stage : STAGES) {
            StageVerdict sv = verdict.stages() == null ? null : verdict.stages().get(stage);
            if (sv != null && sv.present()) {
                scope.addLogRecords(event(verdict, stage, sv, shared));
            }
        }
        return ExportLogsServiceRequest.newBuilder()
                .addResourceLogs(ResourceLogs.newBuilder()
                        .setResource(PIPELINES.of(verdict.pipeline()))
                        .addScopeLogs(scope))
                .build();
    }

    /** What all of a verdict's events carry alike, made once per verdict rather than once per event. */
    private static final class Shared {
        final long time;
        final ByteString traceId;
        final KeyValue runId;
        final KeyValue modelBundle;
        final KeyValue thresholdsVersion;
        final KeyValue thresholdsSource;

        Shared(Verdict verdict) {
            time = nanos(verdict.scoredAt());
            TraceLink trace = verdict.trace();
            traceId = trace != null && trace.traceId() != null ? bytes(trace.traceId()) : null;
            runId = string(RUN_ID, verdict.runId());
            modelBundle = verdict.modelBundle() == null ? null : MODEL_BUNDLES.of(verdict.modelBundle());
            ThresholdsUsed thresholds = verdict.thresholds();
            thresholdsVersion = thresholds == null ? null : THRESHOLDS_VERSIONS.of(thresholds.version());
            thresholdsSource = thresholds == null ? null : THRESHOLDS_SOURCES.of(thresholds.source());
        }
    }

    private static LogRecord event(Verdict verdict, Stage stage, StageVerdict sv, Shared shared) {
        LogRecord.Builder record = LogRecord.newBuilder()
                .setEventName(EVENT_NAME)
                .setTimeUnixNano(shared.time)
                .setObservedTimeUnixNano(shared.time)
                .setSeverityNumber(sv.flagged() ? SeverityNumber.SEVERITY_NUMBER_WARN : SeverityNumber.SEVERITY_NUMBER_INFO)
                .setSeverityText(sv.flagged() ? "WARN" : "INFO");
        if (shared.traceId != null) {
            record.setTraceId(shared.traceId);
            String span = verdict.trace().spanId(stage);
            if (span != null) {
                record.setSpanId(bytes(span));
            }
        }
        record.addAttributes(EVALUATION_NAME_ATTRIBUTES[stage.ordinal()]);
        if (sv.probability() != null) {
            record.addAttributes(number(SCORE_VALUE, sv.probability()));
        }
        record.addAttributes(sv.flagged() ? FAULT_LABEL : SOUND_LABEL);
        record.addAttributes(string(EXPLANATION, explanation(sv)));
        record.addAttributes(shared.runId);
        if (sv.threshold() != null) {
            record.addAttributes(threshold(stage, sv.threshold()));
        }
        if (sv.repairHint() != null) {
            record.addAttributes(string(REPAIR_HINT, sv.repairHint()));
        }
        if (shared.modelBundle != null) {
            record.addAttributes(shared.modelBundle);
        }
        if (shared.thresholdsVersion != null) {
            record.addAttributes(shared.thresholdsVersion);
            record.addAttributes(shared.thresholdsSource);
        }
        return record.build();
    }

    /** The evidence, or when there is none, the probability against the threshold. */
    static String explanation(StageVerdict sv) {
        String stated = statedExplanation(sv);
        // one builder for the whole text: the numbers are written into it rather than made Strings of their own
        return stated != null ? stated : appendComparison(new StringBuilder(80), sv).toString();
    }

    /** The explanation when it is not the probability against the threshold: the evidence, or flagged or not. */
    static String statedExplanation(StageVerdict sv) {
        if (sv.evidence() != null && !sv.evidence().isEmpty()) {
            return String.join("; ", sv.evidence());
        }
        if (sv.probability() == null || sv.threshold() == null) {
            return sv.flagged() ? "flagged" : "not flagged";
        }
        return null;
    }

    /**
     * Appends the explanation of a stage with no evidence but a probability and a threshold (where
     * {@link #statedExplanation} is null): the probability against the threshold. ASCII only, {@link ThreeDecimals}'
     * spellings included.
     */
    static StringBuilder appendComparison(StringBuilder text, StageVerdict sv) {
        text.append("fault probability ");
        ThreeDecimals.append(text, sv.probability())
                .append(", ").append(sv.probability() >= sv.threshold() ? "at or above" : "below")
                .append(" the stage's threshold ");
        return ThreeDecimals.append(text, sv.threshold());
    }

    /**
     * As {@code String.format(Locale.ROOT, "%.3f", v)}: both round the shortest decimal that reads back as {@code v}
     * half up. Written out because most stages of most runs have no evidence and get this explanation: a Formatter per
     * call, and then a BigDecimal per call, were a quarter and then a tenth of the scoring thread's allocation (JFR,
     * issue #27). {@code EvaluationEventsTest} and {@code ThreeDecimalsTest} hold it to the plain spellings.
     */
    static String threeDecimals(double v) {
        return ThreeDecimals.of(v);
    }

    /** The stage's threshold attribute: the last one made for the stage when it holds the same double, bit for bit. */
    private static KeyValue threshold(Stage stage, double threshold) {
        KeyValue last = LAST_THRESHOLDS.get(stage.ordinal());
        if (last != null && Double.doubleToRawLongBits(last.getValue().getDoubleValue())
                == Double.doubleToRawLongBits(threshold)) {
            return last;
        }
        KeyValue made = number(THRESHOLD, threshold);
        LAST_THRESHOLDS.set(stage.ordinal(), made);
        return made;
    }

    private static long nanos(Instant at) {
        return at == null ? 0 : Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000_000L), at.getNano());
    }

    /** Hex digits as bytes, wrapped rather than copied: the array is new and no one else holds it. */
    private static ByteString bytes(String hex) {
        return UnsafeByteOperations.unsafeWrap(HEX.parseHex(hex));
    }

    private static KeyValue string(String key, String value) {
        return KeyValue.newBuilder().setKey(key)
                .setValue(AnyValue.newBuilder().setStringValue(value == null ? "" : value)).build();
    }

    private static KeyValue number(String key, double value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setDoubleValue(value)).build();
    }
}
