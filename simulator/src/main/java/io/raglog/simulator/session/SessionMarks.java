package io.raglog.simulator.session;

import io.raglog.schemas.CallEvent;
import io.raglog.schemas.HttpRequest;
import io.raglog.simulator.profile.Rendered;
import io.raglog.simulator.wire.OtlpSpan;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Puts a session id where a pipeline sends it: a request header on every proxied call (which the proxy records, and
 * copies into the call's {@code session}), the attribute {@code session.id} on every span of a traced run.
 */
public final class SessionMarks {

    private SessionMarks() {}

    public static Rendered withSession(Rendered run, String sessionId) {
        if (sessionId == null) {
            return run;
        }
        List<CallEvent> calls = new ArrayList<>(run.calls().size());
        for (CallEvent c : run.calls()) {
            HttpRequest rq = c.request();
            Map<String, String> headers = new LinkedHashMap<>(rq.headers() == null ? Map.of() : rq.headers());
            headers.put(SessionPlan.SESSION_HEADER, sessionId);
            calls.add(new CallEvent(c.schema(), c.eventId(), c.pipeline(), c.runHint(), c.startedAt(), c.endedAt(),
                    new HttpRequest(rq.method(), rq.url(), headers, rq.body()), c.response(), c.source(), sessionId));
        }
        List<OtlpSpan> spans = new ArrayList<>(run.spans().size());
        for (OtlpSpan s : run.spans()) {
            Map<String, Object> attributes = new LinkedHashMap<>(s.attributes());
            attributes.put(SessionPlan.SESSION_ATTRIBUTE, sessionId);
            spans.add(new OtlpSpan(s.serviceName(), s.traceId(), s.spanId(), s.parentSpanId(), s.name(), s.start(),
                    s.end(), attributes));
        }
        return new Rendered(calls, spans, run.runHint(), run.generatorEventId());
    }
}
