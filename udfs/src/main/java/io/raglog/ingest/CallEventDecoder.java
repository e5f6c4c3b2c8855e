package io.raglog.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.HttpRequest;
import io.raglog.schemas.HttpResponse;
import io.raglog.schemas.IsoInstants;
import io.raglog.schemas.SchemaIds;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decodes and validates one {@code raglog.call/v1} message. Never throws: a message is either a CallEvent or a
 * reason a person can read in the dead-letter topic. The checks mirror {@code schemas/call.v1.json}; they are written
 * out rather than run through a schema validator because this is the hottest path of the job.
 */
public final class CallEventDecoder {

    /** The outcome: exactly one of {@code event} and {@code reason} is set. */
    public record Decoded(CallEvent event, String reason) {
        public boolean ok() {
            return event != null;
        }
    }

    private CallEventDecoder() {}

    public static Decoded decode(byte[] payload) {
        JsonMessages.Parsed parsed = JsonMessages.object(payload);
        if (parsed.reason() != null) {
            return failure(parsed.reason());
        }
        JsonNode tree = parsed.object();
        Times times = new Times();
        List<String> problems = problems(tree, times);
        if (!problems.isEmpty()) {
            return failure("invalid raglog.call/v1: " + String.join("; ", problems));
        }
        CallEvent event = event(tree, times);
        if (event.endedAt().isBefore(event.startedAt())) {
            return failure("invalid raglog.call/v1: ended_at is before started_at");
        }
        return new Decoded(withoutCredentials(event), null);
    }

    /**
     * The record from the tree {@link #problems} found valid. Built by hand rather than by {@code treeToValue}, which
     * walks the whole tree again and copies both bodies (most of a call's bytes) node by node; here the bodies are
     * the parsed subtrees themselves.
     */
    private static CallEvent event(JsonNode t, Times times) {
        JsonNode rq = t.get("request");
        JsonNode rs = t.get("response");
        JsonNode hint = t.get("run_hint");
        JsonNode session = t.get("session");
        return new CallEvent(t.get("schema").asText(), t.get("event_id").asText(), t.get("pipeline").asText(),
                hint == null || hint.isNull() ? null : hint.asText(),
                times.startedAt, times.endedAt,
                new HttpRequest(rq.get("method").asText(), rq.get("url").asText(), headers(rq), rq.get("body")),
                new HttpResponse(rs.get("status").asInt(), headers(rs), rs.get("body")),
                t.get("source").asText(),
                session == null || !session.isTextual() || session.asText().isBlank() ? null : session.asText());
    }

    private static Map<String, String> headers(JsonNode parent) {
        JsonNode headers = parent.get("headers");
        if (headers == null || headers.isNull()) {
            return null;
        }
        // in order and at their size, as the message's own objects are held (CompactLinkedMap): a LinkedHashMap's table
        // and an entry a header were a twentieth of what decoding a call allocated (JMH decodeCall, issue #27)
        Map<String, String> map = new CompactLinkedMap<>(headers.size());
        // walked without an entry object per header, which the tree's map makes as its entry set is iterated
        ((ObjectNode) headers).forEachEntry((name, value) -> map.put(name, value.asText()));
        return map;
    }

    /**
     * The two times as {@link #problems} read them: each is parsed once, where it is checked (parsing them again to
     * build the event was a twentieth of decoding's allocation).
     */
    private static final class Times {
        Instant startedAt;
        Instant endedAt;
    }

    /** The proxy redacts credential headers; a producer that does not must not get them past this point. */
    private static CallEvent withoutCredentials(CallEvent e) {
        HttpRequest rq = e.request();
        HttpResponse rs = e.response();
        Map<String, String> rqHeaders = Credentials.redactHeaders(rq.headers());
        Map<String, String> rsHeaders = Credentials.redactHeaders(rs.headers());
        if (rqHeaders == rq.headers() && rsHeaders == rs.headers()) {
            return e;
        }
        return new CallEvent(e.schema(), e.eventId(), e.pipeline(), e.runHint(), e.startedAt(), e.endedAt(),
                new HttpRequest(rq.method(), rq.url(), rqHeaders, rq.body()),
                new HttpResponse(rs.status(), rsHeaders, rs.body()), e.source(), e.session());
    }

    private static List<String> problems(JsonNode t, Times times) {
        List<String> p = new ArrayList<>();
        JsonNode schema = t.get("schema");
        if (schema == null || !schema.isTextual()) {
            p.add("schema is missing");
        } else if (!SchemaIds.CALL_V1.equals(schema.asText())) {
            p.add("schema is '" + schema.asText() + "', expected '" + SchemaIds.CALL_V1 + "'");
        }
        requireText(t, "event_id", p);
        requireText(t, "pipeline", p);
        JsonNode hint = t.get("run_hint");
        if (hint != null && !hint.isNull() && !hint.isTextual()) {
            p.add("run_hint must be a string or null");
        }
        times.startedAt = requireInstant(t, "started_at", p);
        times.endedAt = requireInstant(t, "ended_at", p);
        JsonNode request = t.get("request");
        if (request == null || !request.isObject()) {
            p.add("request must be an object");
        } else {
            requireText(request, "method", p, "request.");
            requireText(request, "url", p, "request.");
            requireHeaders(request, "request.", p);
        }
        JsonNode response = t.get("response");
        if (response == null || !response.isObject()) {
            p.add("response must be an object");
        } else {
            JsonNode status = response.get("status");
            if (status == null || !status.canConvertToInt() || !status.isIntegralNumber()
                    || status.asInt() < 0 || status.asInt() > 999) {
                p.add("response.status must be an integer 0-999");
            }
            requireHeaders(response, "response.", p);
        }
        JsonNode source = t.get("source");
        if (source == null || !("proxy".equals(source.asText()) || "otlp".equals(source.asText()))) {
            p.add("source must be 'proxy' or 'otlp'");
        }
        return p;
    }

    private static void requireText(JsonNode t, String field, List<String> p) {
        requireText(t, field, p, "");
    }

    private static void requireText(JsonNode t, String field, List<String> p, String prefix) {
        JsonNode v = t.get(field);
        if (v == null || !v.isTextual() || v.asText().isBlank()) {
            p.add(prefix + field + " must be a non-empty string");
        }
    }

    /** RFC 3339: {@code Z} or an offset; null, with the problem added, when it is not one. */
    private static Instant requireInstant(JsonNode t, String field, List<String> p) {
        JsonNode v = t.get(field);
        if (v == null || !v.isTextual()) {
            p.add(field + " must be an RFC 3339 date-time string");
            return null;
        }
        // the form the proxy writes, read without a DateTimeFormatter (issue #27); any other is Instant.parse's
        Instant plain = IsoInstants.parse(v.asText());
        if (plain != null) {
            return plain;
        }
        try {
            return Instant.parse(v.asText());
        } catch (DateTimeParseException e) {
            try {
                return OffsetDateTime.parse(v.asText()).toInstant();
            } catch (DateTimeParseException e2) {
                p.add(field + " is not an RFC 3339 date-time: '" + abbreviate(v.asText()) + "'");
                return null;
            }
        }
    }

    private static void requireHeaders(JsonNode parent, String prefix, List<String> p) {
        JsonNode headers = parent.get("headers");
        if (headers == null || headers.isNull()) {
            return;
        }
        if (!headers.isObject()) {
            p.add(prefix + "headers must be an object of strings");
            return;
        }
        ((ObjectNode) headers).forEachEntry((name, value) -> {
            if (!value.isTextual()) {
                p.add(prefix + "headers." + name + " must be a string");
            }
        });
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }

    private static Decoded failure(String reason) {
        return new Decoded(null, reason);
    }
}
