package io.raglog.proxy.record;

import java.util.Locale;

/**
 * The run hint of a call: an explicit {@code x-raglog-run-id}, else the trace id of a W3C {@code traceparent}, else
 * none. raglog groups a run's calls by it, so a malformed traceparent gives no hint rather than a wrong one.
 */
public final class RunHints {

    public static final String RUN_ID_HEADER = "x-raglog-run-id";
    public static final String PIPELINE_HEADER = "x-raglog-pipeline";
    public static final String TRACEPARENT_HEADER = "traceparent";

    private static final String ZERO_TRACE_ID = "0".repeat(32);

    private RunHints() {}

    public static String of(String runIdHeader, String traceparent) {
        if (runIdHeader != null && !runIdHeader.isBlank()) {
            return runIdHeader.strip();
        }
        return traceId(traceparent);
    }

    /** {@code version-traceid-parentid-flags}: 2, 32, 16 and 2 lower-case hex digits; version ff is invalid. */
    static String traceId(String traceparent) {
        if (traceparent == null) {
            return null;
        }
        String[] parts = traceparent.strip().split("-", -1);
        if (parts.length < 4 || !hex(parts[0], 2) || parts[0].equalsIgnoreCase("ff") || !hex(parts[1], 32)
                || !hex(parts[2], 16) || !hex(parts[3], 2) || (parts[0].equals("00") && parts.length != 4)) {
            return null;
        }
        String traceId = parts[1].toLowerCase(Locale.ROOT);
        return traceId.equals(ZERO_TRACE_ID) ? null : traceId;
    }

    private static boolean hex(String s, int length) {
        if (s.length() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (Character.digit(s.charAt(i), 16) < 0) {
                return false;
            }
        }
        return true;
    }
}
