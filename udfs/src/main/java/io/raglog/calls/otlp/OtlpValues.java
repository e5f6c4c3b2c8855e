package io.raglog.calls.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import java.util.HexFormat;

/**
 * What both decoders must do identically, so that the same span gives the same call whatever its encoding: ids to
 * lower-case hex, integers to the same JSON node type, enum numbers to names.
 */
final class OtlpValues {

    static final String[] SPAN_KINDS = {"SPAN_KIND_UNSPECIFIED", "SPAN_KIND_INTERNAL", "SPAN_KIND_SERVER",
        "SPAN_KIND_CLIENT", "SPAN_KIND_PRODUCER", "SPAN_KIND_CONSUMER"};
    static final String[] STATUS_CODES = {"STATUS_CODE_UNSET", "STATUS_CODE_OK", "STATUS_CODE_ERROR"};

    private static final int TRACE_ID_BYTES = 16;
    private static final int SPAN_ID_BYTES = 8;

    private OtlpValues() {}

    /** Int range as an int node, as Jackson itself reads JSON numbers back: a call survives a JSON round trip equal. */
    static JsonNode integer(long value) {
        return value >= Integer.MIN_VALUE && value <= Integer.MAX_VALUE ? IntNode.valueOf((int) value)
                : LongNode.valueOf(value);
    }

    static String kindName(int kind) {
        return kind >= 0 && kind < SPAN_KINDS.length ? SPAN_KINDS[kind] : "SPAN_KIND_" + kind;
    }

    static String traceId(byte[] id, String where) throws MalformedOtlpException {
        return requiredId(id, TRACE_ID_BYTES, where + ".traceId");
    }

    static String spanId(byte[] id, String where) throws MalformedOtlpException {
        return requiredId(id, SPAN_ID_BYTES, where + ".spanId");
    }

    /** Empty for a root span; else a span id. */
    static String parentSpanId(byte[] id, String where) throws MalformedOtlpException {
        return id.length == 0 ? "" : requiredId(id, SPAN_ID_BYTES, where + ".parentSpanId");
    }

    private static String requiredId(byte[] id, int length, String where) throws MalformedOtlpException {
        if (id.length != length) {
            throw new MalformedOtlpException(where + ": expected " + length + " bytes, got " + id.length);
        }
        for (byte b : id) {
            if (b != 0) {
                return HexFormat.of().formatHex(id);
            }
        }
        throw new MalformedOtlpException(where + ": all zero, which OTLP defines as invalid");
    }

    /** An exported span has ended; a zero time means the producer did not set it. */
    static void checkTimes(long start, long end, String where) throws MalformedOtlpException {
        if (start <= 0) {
            throw new MalformedOtlpException(where + ".startTimeUnixNano: missing or out of range");
        }
        if (end <= 0) {
            throw new MalformedOtlpException(where + ".endTimeUnixNano: missing or out of range");
        }
    }
}
