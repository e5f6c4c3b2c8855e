package io.raglog.otel;

import io.raglog.calls.otlp.SpanToCall;
import io.raglog.schemas.HttpError;
import io.raglog.schemas.Run;
import io.raglog.schemas.Stage;
import io.raglog.schemas.StageRecord;
import io.raglog.schemas.TraceLink;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A run's trace and its stages' spans, read back from its calls' ids: a call decoded from an OTLP span has the id
 * {@code <trace id>:<span id>} ({@link SpanToCall#callId}); a proxy-captured call's id is never of that shape.
 */
public final class TraceLinks {

    private static final Pattern SPAN_CALL = Pattern.compile("([0-9a-f]{32}):([0-9a-f]{16})");

    private TraceLinks() {}

    /**
     * The run's trace and, per present stage, the span of the stage's last call that did not fail (the one whose
     * result the stage used; its last call when all failed); null when none of the run's calls was a span. The trace
     * is the generator's when it was a span, else the first span's; a stage span in another trace is left out.
     */
    public static TraceLink of(Run run) {
        if (run == null || run.stages() == null) {
            return null;
        }
        Set<String> failed = new HashSet<>();
        if (run.httpErrors() != null) {
            run.httpErrors().stream().map(HttpError::callId).forEach(failed::add);
        }
        Map<Stage, String[]> spans = new LinkedHashMap<>();
        for (Stage stage : Stage.values()) {
            StageRecord record = run.stages().get(stage);
            if (record == null || !record.present()) {
                continue;
            }
            // context assembly makes no call: it is read from the generator call's prompt, so it is that span's
            List<String> callIds = stage == Stage.ASSEMBLE ? run.stages().generate().callIds() : record.callIds();
            if (callIds == null) {
                continue;
            }
            String[] span = stageSpan(callIds, failed);
            if (span != null) {
                spans.put(stage, span);
            }
        }
        String traceId = spans.containsKey(Stage.GENERATE) ? spans.get(Stage.GENERATE)[0] : firstTrace(run, spans);
        if (traceId == null) {
            return null;
        }
        Map<String, String> ids = new LinkedHashMap<>();
        spans.forEach((stage, span) -> {
            if (span[0].equals(traceId)) {
                ids.put(stage.id(), span[1]);
            }
        });
        return new TraceLink(traceId, ids);
    }

    private static String[] stageSpan(List<String> callIds, Set<String> failed) {
        String[] last = null;
        String[] lastOk = null;
        for (String id : callIds) {
            String[] span = parse(id);
            if (span != null) {
                last = span;
                if (!failed.contains(id)) {
                    lastOk = span;
                }
            }
        }
        return lastOk != null ? lastOk : last;
    }

    private static String firstTrace(Run run, Map<Stage, String[]> spans) {
        if (!spans.isEmpty()) {
            return spans.values().iterator().next()[0];
        }
        if (run.callIds() != null) {
            for (String id : run.callIds()) {
                String[] span = parse(id);
                if (span != null) {
                    return span[0];
                }
            }
        }
        return null;
    }

    /** {trace id, span id} of a span's call id, null for any other call id. */
    static String[] parse(String callId) {
        if (callId == null) {
            return null;
        }
        Matcher m = SPAN_CALL.matcher(callId);
        return m.matches() ? new String[] {m.group(1), m.group(2)} : null;
    }
}
