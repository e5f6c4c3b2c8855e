package io.raglog.otel;

import static io.raglog.otel.EvaluationEvents.EVALUATION_NAME;
import static io.raglog.otel.EvaluationEvents.EVENT_NAME;
import static io.raglog.otel.EvaluationEvents.EXPLANATION;
import static io.raglog.otel.EvaluationEvents.FAULT;
import static io.raglog.otel.EvaluationEvents.MODEL_BUNDLE;
import static io.raglog.otel.EvaluationEvents.REPAIR_HINT;
import static io.raglog.otel.EvaluationEvents.RUN_ID;
import static io.raglog.otel.EvaluationEvents.SCOPE;
import static io.raglog.otel.EvaluationEvents.SCORE_LABEL;
import static io.raglog.otel.EvaluationEvents.SCORE_VALUE;
import static io.raglog.otel.EvaluationEvents.SERVICE_NAME;
import static io.raglog.otel.EvaluationEvents.SOUND;
import static io.raglog.otel.EvaluationEvents.THRESHOLD;
import static io.raglog.otel.EvaluationEvents.THRESHOLDS_SOURCE;
import static io.raglog.otel.EvaluationEvents.THRESHOLDS_VERSION;

import com.google.protobuf.ByteString;
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
import io.raglog.schemas.TraceLink;
import io.raglog.schemas.Verdict;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Locale;

/**
 * {@link EvaluationEvents} as it was before issue #27 took its allocation down, kept as the reference its bytes are
 * held to ({@link EvaluationEventsBytesTest}).
 */
final class EvaluationEventsBeforeIssue27 {

    private static final HexFormat HEX = HexFormat.of();

    private EvaluationEventsBeforeIssue27() {}

    /** The evaluation name of a stage's result: {@code raglog.retrieve}, ... */
    public static String evaluationName(Stage stage) {
        return SCOPE + "." + stage.id();
    }

    /** One request, one resource (the pipeline), one scope, one event per present stage in pipeline order. */
    public static ExportLogsServiceRequest of(Verdict verdict) {
        ScopeLogs.Builder scope = ScopeLogs.newBuilder()
                .setScope(InstrumentationScope.newBuilder().setName(SCOPE));
        long time = nanos(verdict.scoredAt());
        for (Stage stage : Stage.values()) {
            StageVerdict sv = verdict.stages() == null ? null : verdict.stages().get(stage);
            if (sv != null && sv.present()) {
                scope.addLogRecords(event(verdict, stage, sv, time));
            }
        }
        return ExportLogsServiceRequest.newBuilder()
                .addResourceLogs(ResourceLogs.newBuilder()
                        .setResource(Resource.newBuilder().addAttributes(string(SERVICE_NAME, verdict.pipeline())))
                        .addScopeLogs(scope))
                .build();
    }

    private static LogRecord event(Verdict verdict, Stage stage, StageVerdict sv, long time) {
        LogRecord.Builder record = LogRecord.newBuilder()
                .setEventName(EVENT_NAME)
                .setTimeUnixNano(time)
                .setObservedTimeUnixNano(time)
                .setSeverityNumber(sv.flagged() ? SeverityNumber.SEVERITY_NUMBER_WARN : SeverityNumber.SEVERITY_NUMBER_INFO)
                .setSeverityText(sv.flagged() ? "WARN" : "INFO");
        TraceLink trace = verdict.trace();
        if (trace != null && trace.traceId() != null) {
            record.setTraceId(ByteString.copyFrom(HEX.parseHex(trace.traceId())));
            String span = trace.spanId(stage);
            if (span != null) {
                record.setSpanId(ByteString.copyFrom(HEX.parseHex(span)));
            }
        }
        record.addAttributes(string(EVALUATION_NAME, evaluationName(stage)));
        if (sv.probability() != null) {
            record.addAttributes(number(SCORE_VALUE, sv.probability()));
        }
        record.addAttributes(string(SCORE_LABEL, sv.flagged() ? FAULT : SOUND));
        record.addAttributes(string(EXPLANATION, explanation(sv)));
        record.addAttributes(string(RUN_ID, verdict.runId()));
        if (sv.threshold() != null) {
            record.addAttributes(number(THRESHOLD, sv.threshold()));
        }
        if (sv.repairHint() != null) {
            record.addAttributes(string(REPAIR_HINT, sv.repairHint()));
        }
        if (verdict.modelBundle() != null) {
            record.addAttributes(string(MODEL_BUNDLE, verdict.modelBundle()));
        }
        if (verdict.thresholds() != null) {
            record.addAttributes(string(THRESHOLDS_VERSION, verdict.thresholds().version()));
            record.addAttributes(string(THRESHOLDS_SOURCE, verdict.thresholds().source()));
        }
        return record.build();
    }

    /** The evidence, or when there is none, the probability against the threshold. */
    static String explanation(StageVerdict sv) {
        if (sv.evidence() != null && !sv.evidence().isEmpty()) {
            return String.join("; ", sv.evidence());
        }
        if (sv.probability() == null || sv.threshold() == null) {
            return sv.flagged() ? "flagged" : "not flagged";
        }
        return "fault probability " + threeDecimals(sv.probability()) + ", "
                + (sv.probability() >= sv.threshold() ? "at or above" : "below") + " the stage's threshold "
                + threeDecimals(sv.threshold());
    }

    /**
     * As {@code String.format(Locale.ROOT, "%.3f", v)}: both round the shortest decimal that reads back as {@code v}
     * half up. Written out because most stages of most runs have no evidence and get this explanation, and a
     * Formatter per call (its parse, its DecimalFormatSymbols, its streams) was a quarter of what a verdict's
     * evaluation events allocated (JFR, issue #27). {@code EvaluationEventsTest} holds the two to the same text.
     */
    static String threeDecimals(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v) || Math.copySign(1.0, v) < 0) {
            return String.format(Locale.ROOT, "%.3f", v); // "-0.000", "NaN": the Formatter's own spellings
        }
        return BigDecimal.valueOf(v).setScale(3, RoundingMode.HALF_UP).toPlainString();
    }

    private static long nanos(Instant at) {
        return at == null ? 0 : Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000_000L), at.getNano());
    }

    private static KeyValue string(String key, String value) {
        return KeyValue.newBuilder().setKey(key)
                .setValue(AnyValue.newBuilder().setStringValue(value == null ? "" : value)).build();
    }

    private static KeyValue number(String key, double value) {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setDoubleValue(value)).build();
    }
}
