package io.raglog.feedback;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.ingest.JsonMessages;
import io.raglog.schemas.Feedback;
import io.raglog.schemas.FeedbackKind;
import io.raglog.schemas.FeedbackScore;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Decodes and validates one {@code raglog.feedback/v1} message. Never throws: a message is either Feedback or a reason
 * a person can read in the dead-letter topic. The checks mirror {@code schemas/feedback.v1.json}.
 */
public final class FeedbackDecoder {

    private static final Pattern TRACE_ID = Pattern.compile("[0-9a-f]{32}");

    /** The outcome: exactly one of {@code feedback} and {@code reason} is set. */
    public record Decoded(Feedback feedback, String reason) {
        public boolean ok() {
            return feedback != null;
        }
    }

    private FeedbackDecoder() {}

    public static Decoded decode(byte[] payload) {
        JsonMessages.Parsed parsed = JsonMessages.object(payload);
        if (parsed.reason() != null) {
            return failure(parsed.reason());
        }
        JsonNode tree = parsed.object();
        List<String> problems = new ArrayList<>();
        if (!Feedback.SCHEMA_V1.equals(text(tree, "schema"))) {
            problems.add("schema must be " + Feedback.SCHEMA_V1 + ", was " + tree.get("schema"));
        }
        String id = required(tree, "feedback_id", problems);
        String pipeline = required(tree, "pipeline", problems);
        FeedbackKind kind = kind(tree, problems);
        Instant at = at(tree, problems);
        String thumbs = text(tree, "thumbs");
        FeedbackScore score = null;
        String comment = text(tree, "comment");
        String correction = text(tree, "correction");
        if (kind == FeedbackKind.THUMBS && !Feedback.THUMBS_UP.equals(thumbs) && !Feedback.THUMBS_DOWN.equals(thumbs)) {
            problems.add("thumbs must be up or down for kind thumbs, was " + tree.get("thumbs"));
        }
        if (kind == FeedbackKind.SCORE) {
            score = score(tree.get("score"), problems);
        }
        if (kind == FeedbackKind.COMMENT && blank(comment)) {
            problems.add("comment is required for kind comment");
        }
        if (kind == FeedbackKind.CORRECTION && blank(correction)) {
            problems.add("correction is required for kind correction");
        }
        String runId = text(tree, "run_id");
        String runHint = text(tree, "run_hint");
        String traceId = text(tree, "trace_id");
        String question = text(tree, "question");
        if (traceId != null && !TRACE_ID.matcher(traceId).matches()) {
            problems.add("trace_id must be 32 lower-case hex digits");
        }
        if (blank(runId) && blank(runHint) && blank(traceId) && blank(question)) {
            problems.add("no locator: one of run_id, run_hint, trace_id or question is required to find the run");
        }
        if (!problems.isEmpty()) {
            return failure("invalid " + Feedback.SCHEMA_V1 + ": " + String.join("; ", problems));
        }
        return new Decoded(new Feedback(Feedback.SCHEMA_V1, id, pipeline, kind, thumbs, score, comment, correction, at,
                nonBlank(runId), nonBlank(runHint), nonBlank(traceId), nonBlank(question), text(tree, "source")), null);
    }

    private static FeedbackKind kind(JsonNode tree, List<String> problems) {
        String kind = text(tree, "kind");
        for (FeedbackKind k : FeedbackKind.values()) {
            if (k.id().equals(kind)) {
                return k;
            }
        }
        problems.add("kind must be one of thumbs, score, comment, correction, re_ask, was " + tree.get("kind"));
        return null;
    }

    private static FeedbackScore score(JsonNode score, List<String> problems) {
        if (score == null || !score.isObject() || !score.path("value").isNumber() || !score.path("min").isNumber()
                || !score.path("max").isNumber()) {
            problems.add("score must be an object with numbers value, min and max for kind score");
            return null;
        }
        FeedbackScore s = new FeedbackScore(score.get("value").asDouble(), score.get("min").asDouble(),
                score.get("max").asDouble());
        if (!(s.min() < s.max()) || s.value() < s.min() || s.value() > s.max()) {
            problems.add(String.format(Locale.ROOT, "score %s is not within a scale [%s, %s] with min below max",
                    s.value(), s.min(), s.max()));
            return null;
        }
        return s;
    }

    private static Instant at(JsonNode tree, List<String> problems) {
        String at = text(tree, "at");
        if (at == null) {
            problems.add("at is required");
            return null;
        }
        try {
            return OffsetDateTime.parse(at).toInstant();
        } catch (DateTimeParseException e) {
            problems.add("at is not an RFC 3339 date-time: " + at);
            return null;
        }
    }

    private static String required(JsonNode tree, String field, List<String> problems) {
        String value = text(tree, field);
        if (blank(value)) {
            problems.add(field + " is required");
        }
        return value;
    }

    /** The field's text when it is a JSON string, else null (a number where text belongs is no locator). */
    private static String text(JsonNode tree, String field) {
        JsonNode node = tree.get(field);
        return node != null && node.isTextual() ? node.asText() : null;
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    private static String nonBlank(String s) {
        return blank(s) ? null : s;
    }

    private static Decoded failure(String reason) {
        return new Decoded(null, reason);
    }
}
