package io.raglog.llm;

import static io.raglog.checks.FeatureList.*;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.AnswerUse;
import io.raglog.schemas.EvidenceFlow;
import io.raglog.schemas.EvidenceLocation;
import io.raglog.schemas.EvidencePiece;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a model's reply strictly: one JSON object with exactly the fields the check's prompt asked for, confidences
 * integers 0-100, verdicts from the allowed words. Anything else is a {@link BadReplyException} (retried, then the
 * check is degraded), never a guess. A code fence around the object is tolerated ({@link ReplyJson}).
 */
public final class AnswerParser {

    static final int MAX_FINDINGS = 3;
    static final int MAX_FINDING_CHARS = 200;

    private AnswerParser() {}

    public static CheckAnswer parse(LlmCheck check, String reply) {
        JsonNode root = ReplyJson.object(reply);
        Map<String, Double> f = new LinkedHashMap<>();
        EvidenceFlow flow = null;
        switch (check) {
            case REWRITE -> {
                f.put(LLM_REWRITE_DROPPED, confidence(root, "dropped_constraint"));
                f.put(LLM_REWRITE_CHANGED, confidence(root, "meaning_changed"));
                f.put(LLM_REWRITE_ADDED, confidence(root, "added_content"));
                f.put(LLM_REWRITE_FAULT, confidence(root, "fault"));
            }
            case RETRIEVAL -> {
                f.put(LLM_RETRIEVE_NO_ANSWER, confidence(root, "no_answer"));
                f.put(LLM_RETRIEVE_PARTIAL, confidence(root, "partial"));
                f.put(LLM_RETRIEVE_OFF_TOPIC, confidence(root, "off_topic"));
                f.put(LLM_RETRIEVE_FAULT, confidence(root, "fault"));
            }
            case RERANK -> {
                f.put(LLM_RERANK_ANSWER_DROPPED, confidence(root, "answer_dropped"));
                f.put(LLM_RERANK_BAD_ORDER, confidence(root, "bad_order"));
                f.put(LLM_RERANK_FAULT, confidence(root, "fault"));
            }
            case SUPPORT -> f.putAll(supportFeatures(root));
            case EVIDENCE_FLOW -> {
                flow = evidenceFlow(root);
                f.putAll(flowFeatures(flow));
            }
        }
        return new CheckAnswer(f, findings(root), flow);
    }

    private static double confidence(JsonNode root, String field) {
        JsonNode v = root.get(field);
        if (v == null || !v.isNumber()) {
            throw new BadReplyException("'" + field + "' is missing or not a number");
        }
        double d = v.asDouble();
        if (d < 0 || d > 100) {
            throw new BadReplyException("'" + field + "' is " + d + ", outside 0-100");
        }
        return Math.rint(d);
    }

    private static String word(JsonNode node, String field, String... allowed) {
        JsonNode v = node.get(field);
        if (v == null || !v.isTextual()) {
            throw new BadReplyException("'" + field + "' is missing or not text");
        }
        String w = v.asText().strip().toLowerCase(Locale.ROOT);
        for (String a : allowed) {
            if (a.equals(w)) {
                return w;
            }
        }
        throw new BadReplyException("'" + field + "' is '" + w + "', not one of " + String.join("|", allowed));
    }

    private static JsonNode array(JsonNode root, String field) {
        JsonNode v = root.get(field);
        if (v == null || !v.isArray()) {
            throw new BadReplyException("'" + field + "' is missing or not a list");
        }
        return v;
    }

    private static Map<String, Double> supportFeatures(JsonNode root) {
        JsonNode statements = array(root, "statements");
        int unsupported = 0;
        int contradicted = 0;
        for (JsonNode s : statements) {
            if (!s.isObject()) {
                throw new BadReplyException("a statement is not an object");
            }
            String verdict = word(s, "verdict", "supported", "unsupported", "contradicted");
            if (verdict.equals("unsupported")) {
                unsupported++;
            } else if (verdict.equals("contradicted")) {
                contradicted++;
            }
        }
        return supportFeatures(statements.size(), unsupported, contradicted, confidence(root, "fault"));
    }

    /** The statement verdicts as shares, the way the classifiers read them; shares of no statements are missing. */
    public static Map<String, Double> supportFeatures(int statements, int unsupported, int contradicted, double fault) {
        Map<String, Double> f = new LinkedHashMap<>();
        f.put(LLM_SUPPORT_STATEMENTS, (double) statements);
        if (statements > 0) {
            f.put(LLM_SUPPORT_UNSUPPORTED, (double) unsupported / statements);
            f.put(LLM_SUPPORT_CONTRADICTED, (double) contradicted / statements);
        }
        f.put(LLM_SUPPORT_FAULT, fault);
        return f;
    }

    private static EvidenceFlow evidenceFlow(JsonNode root) {
        List<EvidencePiece> pieces = new ArrayList<>();
        for (JsonNode p : array(root, "pieces")) {
            if (!p.isObject() || !p.path("piece").isTextual()) {
                throw new BadReplyException("a piece is not an object with a 'piece' text");
            }
            EvidenceLocation location = EvidenceLocation.valueOf(
                    word(p, "location", "in_context", "only_dropped", "nowhere").toUpperCase(Locale.ROOT));
            AnswerUse use = AnswerUse.valueOf(
                    word(p, "answer", "included", "omitted", "contradicted").toUpperCase(Locale.ROOT));
            List<String> ids = new ArrayList<>();
            p.path("passage_ids").forEach(id -> ids.add(id.asText()));
            pieces.add(new EvidencePiece(p.get("piece").asText(), location, use, ids));
        }
        return new EvidenceFlow(pieces);
    }

    /** The evidence flow as shares, the way the classifiers read it; shares of nothing are missing. */
    public static Map<String, Double> flowFeatures(EvidenceFlow flow) {
        Map<String, Double> f = new LinkedHashMap<>();
        List<EvidencePiece> pieces = flow.pieces();
        int n = pieces.size();
        f.put(FLOW_PIECES, (double) n);
        if (n == 0) {
            return f;
        }
        long nowhere = pieces.stream().filter(p -> p.location() == EvidenceLocation.NOWHERE).count();
        long dropped = pieces.stream().filter(p -> p.location() == EvidenceLocation.ONLY_DROPPED).count();
        List<EvidencePiece> inContext = pieces.stream().filter(p -> p.location() == EvidenceLocation.IN_CONTEXT).toList();
        long contradicted = pieces.stream().filter(p -> p.answer() == AnswerUse.CONTRADICTED).count();
        f.put(FLOW_MISSING_SHARE, (double) nowhere / n);
        f.put(FLOW_DROPPED_SHARE, (double) dropped / n);
        if (!inContext.isEmpty()) {
            f.put(FLOW_OMITTED_SHARE,
                    (double) inContext.stream().filter(p -> p.answer() == AnswerUse.OMITTED).count() / inContext.size());
        }
        f.put(FLOW_CONTRADICTED_SHARE, (double) contradicted / n);
        return f;
    }

    private static List<String> findings(JsonNode root) {
        List<String> out = new ArrayList<>();
        JsonNode v = root.get("findings");
        if (v == null || v.isNull()) {
            return out;
        }
        if (!v.isArray()) {
            throw new BadReplyException("'findings' is not a list");
        }
        for (JsonNode s : v) {
            if (out.size() == MAX_FINDINGS) {
                break;
            }
            String text = s.asText().strip();
            if (!text.isEmpty()) {
                out.add(text.length() > MAX_FINDING_CHARS ? text.substring(0, MAX_FINDING_CHARS) + "…" : text);
            }
        }
        return out;
    }
}
