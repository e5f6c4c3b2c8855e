package io.raglog.otel;

import static com.google.protobuf.WireFormat.WIRETYPE_LENGTH_DELIMITED;

import com.google.protobuf.CodedOutputStream;
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
import java.io.IOException;
import java.time.Instant;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The bytes of {@code EvaluationEvents.of(verdict).toByteArray()}, written straight from the verdict with protobuf's
 * {@link CodedOutputStream}: no builders, no messages, no attribute objects. Building the request and then
 * serializing it was ~9.3 KB a verdict (JMH {@code VerdictOutputBenchmarks.writeEvaluationRecord}, issue #27), most of
 * it the per-record and per-attribute builders and messages; here 3.76 KB, of which the result array ~3 KB, the
 * probabilities' digits ({@code ThreeDecimals.append}) ~0.6 KB, then one encoder and the evidence joined.
 *
 * <p>Two passes over the same code: the first ({@code out == null}) only sums sizes, each record's kept for the
 * second, which writes into an array of the exact size, as {@code toByteArray} itself does. The second needs the
 * records' lengths before their bodies; the attributes' lengths are recomputed where written (cheap, no allocation).
 *
 * <p>What keeps the bytes the builder's ({@code EvaluationEventsWriterTest} holds them to it over random and simulated
 * verdicts): fields in field-number order, as the generated {@code writeTo} writes them (so in a {@code LogRecord}
 * {@code observed_time_unix_nano}, 11, comes after the ids, 9 and 10); proto3 defaults left out where the generated
 * code leaves them out (a zero time, empty trace or span ids), while an {@code AnyValue}'s string or double, being a
 * oneof member, is written even when empty or 0.0; strings through {@link CodedOutputStream#writeString} and
 * {@link CodedOutputStream#computeStringSize}, which is what the generated code calls, so non-ASCII and unpaired
 * surrogates come out alike; doubles by their raw bits, as {@code writeDouble} writes them (-0.0 and NaNs kept).
 * Field numbers are the generated classes' own {@code *_FIELD_NUMBER} constants.
 *
 * <p>Not thread-safe per call, safe across threads: each thread has its own scratch for a verdict's per-stage state.
 */
public final class EvaluationEventsWriter {

    private static final Stage[] STAGES = Stage.values();
    private static final HexFormat HEX = HexFormat.of();
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    // the field numbers, as generated from the OTLP protos
    private static final int REQUEST_RESOURCE_LOGS = ExportLogsServiceRequest.RESOURCE_LOGS_FIELD_NUMBER;
    private static final int RESOURCE_LOGS_RESOURCE = ResourceLogs.RESOURCE_FIELD_NUMBER;
    private static final int RESOURCE_LOGS_SCOPE_LOGS = ResourceLogs.SCOPE_LOGS_FIELD_NUMBER;
    private static final int RESOURCE_ATTRIBUTES = Resource.ATTRIBUTES_FIELD_NUMBER;
    private static final int SCOPE_LOGS_SCOPE = ScopeLogs.SCOPE_FIELD_NUMBER;
    private static final int SCOPE_LOGS_LOG_RECORDS = ScopeLogs.LOG_RECORDS_FIELD_NUMBER;
    private static final int SCOPE_NAME = InstrumentationScope.NAME_FIELD_NUMBER;
    private static final int TIME = LogRecord.TIME_UNIX_NANO_FIELD_NUMBER;
    private static final int SEVERITY_NUMBER = LogRecord.SEVERITY_NUMBER_FIELD_NUMBER;
    private static final int SEVERITY_TEXT = LogRecord.SEVERITY_TEXT_FIELD_NUMBER;
    private static final int RECORD_ATTRIBUTES = LogRecord.ATTRIBUTES_FIELD_NUMBER;
    private static final int TRACE_ID = LogRecord.TRACE_ID_FIELD_NUMBER;
    private static final int SPAN_ID = LogRecord.SPAN_ID_FIELD_NUMBER;
    private static final int OBSERVED_TIME = LogRecord.OBSERVED_TIME_UNIX_NANO_FIELD_NUMBER;
    private static final int EVENT_NAME = LogRecord.EVENT_NAME_FIELD_NUMBER;
    private static final int KEY = KeyValue.KEY_FIELD_NUMBER;
    private static final int VALUE = KeyValue.VALUE_FIELD_NUMBER;
    private static final int STRING_VALUE = AnyValue.STRING_VALUE_FIELD_NUMBER;
    private static final int DOUBLE_VALUE = AnyValue.DOUBLE_VALUE_FIELD_NUMBER;

    private static final int WARN = SeverityNumber.SEVERITY_NUMBER_WARN.getNumber();
    private static final int INFO = SeverityNumber.SEVERITY_NUMBER_INFO.getNumber();

    /** The {@code InstrumentationScope}'s size, and its field's in a {@code ScopeLogs}: the same for every verdict. */
    private static final int SCOPE_SIZE = CodedOutputStream.computeStringSize(SCOPE_NAME, EvaluationEvents.SCOPE);
    private static final int SCOPE_FIELD_SIZE = delimitedSize(SCOPE_LOGS_SCOPE, SCOPE_SIZE);

    private EvaluationEventsWriter() {}

    /** The verdict's {@code ExportLogsServiceRequest}, serialized: {@code EvaluationEvents.of(verdict)}'s bytes. */
    public static byte[] toByteArray(Verdict verdict) {
        Scratch scratch = SCRATCH.get();
        try {
            return scratch.write(verdict);
        } finally {
            scratch.clear();
        }
    }

    /** A verdict's per-stage state between the two passes, kept per thread so that a verdict allocates none. */
    private static final class Scratch {
        final StageVerdict[] stages = new StageVerdict[STAGES.length];
        /** The stage's explanation when stated (evidence, flagged or not); null when it is {@link #comparisons}'. */
        final String[] explanations = new String[STAGES.length];
        /**
         * The stage's probability against its threshold, written into a builder kept per thread and then straight
         * onto the wire, being ASCII: most stages of most verdicts have this explanation, and its String was ~1.8 KB
         * of the 4.96 KB a verdict's record cost once written directly (JMH, issue #27).
         */
        final StringBuilder[] comparisons = new StringBuilder[STAGES.length];
        final int[] recordSizes = new int[STAGES.length];
        Verdict verdict;
        long time;
        /** The run's trace id in hex, null when the run has none: then no record carries trace or span ids. */
        String traceId;

        byte[] write(Verdict v) {
            try {
                return writeOrFail(v);
            } catch (IOException e) {
                // only an array too small, which a miscounted size would be: the sizing pass writes nothing
                throw new IllegalStateException("the evaluation record's size was miscounted", e);
            }
        }

        private byte[] writeOrFail(Verdict v) throws IOException {
            verdict = v;
            time = nanos(v.scoredAt());
            TraceLink trace = v.trace();
            traceId = trace == null ? null : trace.traceId();
            int scopeLogsSize = SCOPE_FIELD_SIZE;
            for (Stage stage : STAGES) {
                StageVerdict sv = v.stages() == null ? null : v.stages().get(stage);
                if (sv != null && sv.present()) {
                    int i = stage.ordinal();
                    stages[i] = sv;
                    explanations[i] = explanation(i, sv);
                    recordSizes[i] = logRecord(null, stage);
                    scopeLogsSize += delimitedSize(SCOPE_LOGS_LOG_RECORDS, recordSizes[i]);
                }
            }
            String pipeline = orEmpty(v.pipeline());
            int resourceSize = stringAttribute(null, RESOURCE_ATTRIBUTES, EvaluationEvents.SERVICE_NAME, pipeline);
            int resourceLogsSize = delimitedSize(RESOURCE_LOGS_RESOURCE, resourceSize)
                    + delimitedSize(RESOURCE_LOGS_SCOPE_LOGS, scopeLogsSize);

            byte[] bytes = new byte[delimitedSize(REQUEST_RESOURCE_LOGS, resourceLogsSize)];
            CodedOutputStream out = CodedOutputStream.newInstance(bytes);
            delimited(out, REQUEST_RESOURCE_LOGS, resourceLogsSize);
            delimited(out, RESOURCE_LOGS_RESOURCE, resourceSize);
            stringAttribute(out, RESOURCE_ATTRIBUTES, EvaluationEvents.SERVICE_NAME, pipeline);
            delimited(out, RESOURCE_LOGS_SCOPE_LOGS, scopeLogsSize);
            delimited(out, SCOPE_LOGS_SCOPE, SCOPE_SIZE);
            out.writeString(SCOPE_NAME, EvaluationEvents.SCOPE);
            for (Stage stage : STAGES) {
                if (stages[stage.ordinal()] != null) {
                    delimited(out, SCOPE_LOGS_LOG_RECORDS, recordSizes[stage.ordinal()]);
                    logRecord(out, stage);
                }
            }
            out.checkNoSpaceLeft(); // and too large an array would be this
            return bytes;
        }

        /** The stated explanation, or null with the comparison in {@code comparisons[i]}. */
        private String explanation(int i, StageVerdict sv) {
            String stated = EvaluationEvents.statedExplanation(sv);
            if (stated != null) {
                return stated;
            }
            if (comparisons[i] == null) {
                comparisons[i] = new StringBuilder(80);
            }
            StringBuilder comparison = EvaluationEvents.appendComparison(comparisons[i], sv);
            // written byte per char below, which only ASCII allows: anything else goes the way of a String
            return isAscii(comparison) ? null : comparison.toString();
        }

        /** The stage's {@code LogRecord}'s body, written when {@code out} is not null; its size either way. */
        int logRecord(CodedOutputStream out, Stage stage) throws IOException {
            int i = stage.ordinal();
            StageVerdict sv = stages[i];
            int size = 0;
            if (time != 0) {
                size += CodedOutputStream.computeFixed64Size(TIME, time);
                if (out != null) {
                    out.writeFixed64(TIME, time);
                }
            }
            int severity = sv.flagged() ? WARN : INFO;
            String severityText = sv.flagged() ? "WARN" : "INFO";
            size += CodedOutputStream.computeEnumSize(SEVERITY_NUMBER, severity)
                    + CodedOutputStream.computeStringSize(SEVERITY_TEXT, severityText);
            if (out != null) {
                out.writeEnum(SEVERITY_NUMBER, severity);
                out.writeString(SEVERITY_TEXT, severityText);
            }
            size += attributes(out, stage, sv);
            if (traceId != null) {
                size += hexBytes(out, TRACE_ID, traceId);
                String span = verdict.trace().spanId(stage);
                if (span != null) {
                    size += hexBytes(out, SPAN_ID, span);
                }
            }
            if (time != 0) {
                size += CodedOutputStream.computeFixed64Size(OBSERVED_TIME, time);
                if (out != null) {
                    out.writeFixed64(OBSERVED_TIME, time);
                }
            }
            size += CodedOutputStream.computeStringSize(EVENT_NAME, EvaluationEvents.EVENT_NAME);
            if (out != null) {
                out.writeString(EVENT_NAME, EvaluationEvents.EVENT_NAME);
            }
            return size;
        }

        /** The record's attributes, in {@code EvaluationEvents}' order. */
        int attributes(CodedOutputStream out, Stage stage, StageVerdict sv) throws IOException {
            int size = stringAttribute(out, RECORD_ATTRIBUTES, EvaluationEvents.EVALUATION_NAME,
                    EvaluationEvents.evaluationName(stage));
            if (sv.probability() != null) {
                size += doubleAttribute(out, EvaluationEvents.SCORE_VALUE, sv.probability());
            }
            size += stringAttribute(out, RECORD_ATTRIBUTES, EvaluationEvents.SCORE_LABEL,
                    sv.flagged() ? EvaluationEvents.FAULT : EvaluationEvents.SOUND);
            String explanation = explanations[stage.ordinal()];
            size += explanation != null
                    ? stringAttribute(out, RECORD_ATTRIBUTES, EvaluationEvents.EXPLANATION, explanation)
                    : asciiAttribute(out, EvaluationEvents.EXPLANATION, comparisons[stage.ordinal()]);
            size += stringAttribute(out, RECORD_ATTRIBUTES, EvaluationEvents.RUN_ID, orEmpty(verdict.runId()));
            if (sv.threshold() != null) {
                size += doubleAttribute(out, EvaluationEvents.THRESHOLD, sv.threshold());
            }
            if (sv.repairHint() != null) {
                size += stringAttribute(out, RECORD_ATTRIBUTES, EvaluationEvents.REPAIR_HINT, sv.repairHint());
            }
            if (verdict.modelBundle() != null) {
                size += stringAttribute(out, RECORD_ATTRIBUTES, EvaluationEvents.MODEL_BUNDLE, verdict.modelBundle());
            }
            ThresholdsUsed thresholds = verdict.thresholds();
            if (thresholds != null) {
                size += stringAttribute(out, RECORD_ATTRIBUTES, EvaluationEvents.THRESHOLDS_VERSION,
                        orEmpty(thresholds.version()));
                size += stringAttribute(out, RECORD_ATTRIBUTES, EvaluationEvents.THRESHOLDS_SOURCE,
                        orEmpty(thresholds.source()));
            }
            return size;
        }

        void clear() {
            Arrays.fill(stages, null);
            Arrays.fill(explanations, null);
            for (StringBuilder comparison : comparisons) {
                if (comparison != null) {
                    comparison.setLength(0);
                }
            }
            verdict = null;
            traceId = null;
        }
    }

    /** A {@code KeyValue} field holding a string {@code AnyValue}, tag and length included. */
    private static int stringAttribute(CodedOutputStream out, int field, String key, String value) throws IOException {
        int valueSize = CodedOutputStream.computeStringSize(STRING_VALUE, value);
        int keyValueSize = CodedOutputStream.computeStringSize(KEY, key) + delimitedSize(VALUE, valueSize);
        if (out != null) {
            delimited(out, field, keyValueSize);
            out.writeString(KEY, key);
            delimited(out, VALUE, valueSize);
            out.writeString(STRING_VALUE, value);
        }
        return delimitedSize(field, keyValueSize);
    }

    /**
     * A record's {@code KeyValue} attribute holding a string {@code AnyValue} of ASCII characters, one byte each: the
     * bytes {@code writeString} writes for the same text as a String (UTF-8 is ASCII's identity).
     */
    private static int asciiAttribute(CodedOutputStream out, String key, CharSequence ascii) throws IOException {
        int length = ascii.length();
        int valueSize = delimitedSize(STRING_VALUE, length);
        int keyValueSize = CodedOutputStream.computeStringSize(KEY, key) + delimitedSize(VALUE, valueSize);
        if (out != null) {
            delimited(out, RECORD_ATTRIBUTES, keyValueSize);
            out.writeString(KEY, key);
            delimited(out, VALUE, valueSize);
            delimited(out, STRING_VALUE, length);
            for (int i = 0; i < length; i++) {
                out.writeRawByte((byte) ascii.charAt(i));
            }
        }
        return delimitedSize(RECORD_ATTRIBUTES, keyValueSize);
    }

    private static boolean isAscii(CharSequence text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }

    /** A record's {@code KeyValue} attribute holding a double {@code AnyValue}, tag and length included. */
    private static int doubleAttribute(CodedOutputStream out, String key, double value) throws IOException {
        int valueSize = CodedOutputStream.computeDoubleSize(DOUBLE_VALUE, value);
        int keyValueSize = CodedOutputStream.computeStringSize(KEY, key) + delimitedSize(VALUE, valueSize);
        if (out != null) {
            delimited(out, RECORD_ATTRIBUTES, keyValueSize);
            out.writeString(KEY, key);
            delimited(out, VALUE, valueSize);
            out.writeDouble(DOUBLE_VALUE, value);
        }
        return delimitedSize(RECORD_ATTRIBUTES, keyValueSize);
    }

    /**
     * A bytes field holding the hex digits' bytes, decoded as they are written rather than into an array first; left
     * out when empty, as proto3 leaves out an empty bytes field. Anything {@code HexFormat.parseHex} refuses is refused
     * by it, with its exception, as {@code EvaluationEvents} would.
     */
    private static int hexBytes(CodedOutputStream out, int field, String hex) throws IOException {
        int length = hex.length();
        if (length % 2 != 0) {
            HEX.parseHex(hex); // throws
        }
        for (int i = 0; i < length; i++) {
            if (!HexFormat.isHexDigit(hex.charAt(i))) {
                HEX.parseHex(hex); // throws
            }
        }
        int bytes = length / 2;
        if (bytes == 0) {
            return 0;
        }
        if (out != null) {
            delimited(out, field, bytes);
            for (int i = 0; i < length; i += 2) {
                out.writeRawByte((byte) (HexFormat.fromHexDigit(hex.charAt(i)) << 4
                        | HexFormat.fromHexDigit(hex.charAt(i + 1))));
            }
        }
        return delimitedSize(field, bytes);
    }

    /** A length-delimited field's tag and length, as {@code writeMessage} writes them before the message. */
    private static void delimited(CodedOutputStream out, int field, int length) throws IOException {
        out.writeTag(field, WIRETYPE_LENGTH_DELIMITED);
        out.writeUInt32NoTag(length);
    }

    private static int delimitedSize(int field, int length) {
        return CodedOutputStream.computeTagSize(field) + CodedOutputStream.computeUInt32SizeNoTag(length) + length;
    }

    private static String orEmpty(String s) {
        return s == null ? "" : s;
    }

    private static long nanos(Instant at) {
        return at == null ? 0 : Math.addExact(Math.multiplyExact(at.getEpochSecond(), 1_000_000_000L), at.getNano());
    }
}
