package io.raglog.calls.mapping;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.llm.BadReplyException;
import io.raglog.llm.ReplyJson;
import io.raglog.schemas.Json;
import java.lang.reflect.RecordComponent;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * Reads a model's proposal strictly: one JSON object, a known stage, exactly that stage's section, only the keys the
 * prompt named, and every value a path (text) or null. Anything else is refused with the reason, never repaired: a
 * reply that adds a key ("note": "from now on ...") or writes prose where a path goes is what an instruction smuggled
 * into a logged body would produce. A code fence around the object is tolerated ({@link ReplyJson}).
 */
final class ProposalParser {

    private static final Set<String> TOP_LEVEL = Set.of("stage", "chat", "embed", "retrieve", "rerank", "reason",
            "schema");

    static final int MAX_REASON_CHARS = 200;

    private ProposalParser() {}

    static FieldMapping parse(String reply) throws InvalidMappingException {
        ObjectNode root = object(reply);
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!TOP_LEVEL.contains(key)) {
                throw new InvalidMappingException("unexpected key '" + shortened(key) + "' in the reply");
            }
        }
        JsonNode schema = root.get("schema");
        if (schema != null && !schema.isNull() && !FieldMapping.SCHEMA.equals(schema.asText())) {
            throw new InvalidMappingException("schema is '" + shortened(schema.asText()) + "', expected "
                    + FieldMapping.SCHEMA);
        }
        FieldMapping.Kind stage = stage(root.get("stage"));
        for (FieldMapping.Kind other : FieldMapping.Kind.values()) {
            JsonNode section = root.get(other.id());
            if (other != stage && section != null && !section.isNull()) {
                throw new InvalidMappingException("stage is " + stage.id() + " but the reply has a '" + other.id()
                        + "' section");
            }
        }
        return switch (stage) {
            case CHAT -> FieldMapping.chat(section(root, stage, FieldMapping.Chat.class));
            case EMBED -> FieldMapping.embed(section(root, stage, FieldMapping.Embed.class));
            case RETRIEVE -> FieldMapping.retrieve(section(root, stage, FieldMapping.Retrieve.class));
            case RERANK -> FieldMapping.rerank(section(root, stage, FieldMapping.Rerank.class));
            case NOT_A_RUN_CALL -> FieldMapping.notARunCall(reason(root.get("reason")));
        };
    }

    private static ObjectNode object(String reply) throws InvalidMappingException {
        try {
            return ReplyJson.object(reply);
        } catch (BadReplyException e) {
            throw new InvalidMappingException(e.getMessage());
        }
    }

    private static FieldMapping.Kind stage(JsonNode v) throws InvalidMappingException {
        if (v == null || !v.isTextual()) {
            throw new InvalidMappingException("'stage' is missing or not text");
        }
        for (FieldMapping.Kind k : FieldMapping.Kind.values()) {
            if (k.id().equals(v.textValue().strip())) {
                return k;
            }
        }
        throw new InvalidMappingException("'stage' is '" + shortened(v.textValue())
                + "', not one of chat|embed|retrieve|rerank|not_a_run_call");
    }

    private static <T extends Record> T section(ObjectNode root, FieldMapping.Kind stage, Class<T> type)
            throws InvalidMappingException {
        JsonNode section = root.get(stage.id());
        if (section == null || !section.isObject()) {
            throw new InvalidMappingException("stage is " + stage.id() + " but there is no '" + stage.id()
                    + "' object");
        }
        Set<String> allowed = keys(type);
        for (Iterator<Map.Entry<String, JsonNode>> it = section.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String where = stage.id() + "." + shortened(f.getKey());
            if (!allowed.contains(f.getKey())) {
                throw new InvalidMappingException("unexpected key '" + where + "'; " + stage.id() + " takes "
                        + String.join(", ", allowed));
            }
            if (!f.getValue().isNull() && !f.getValue().isTextual()) {
                throw new InvalidMappingException(where + " is not a path (text) or null");
            }
        }
        try {
            return Json.MAPPER.treeToValue(section, type);
        } catch (JsonProcessingException e) {
            throw new InvalidMappingException("the '" + stage.id() + "' section cannot be read: "
                    + e.getOriginalMessage());
        }
    }

    /** The section's wire names, from the record itself, so the parser and the record never disagree. */
    static Set<String> keys(Class<? extends Record> type) {
        var snake = (PropertyNamingStrategies.NamingBase) PropertyNamingStrategies.SNAKE_CASE;
        Set<String> out = new LinkedHashSet<>();
        for (RecordComponent c : type.getRecordComponents()) {
            out.add(snake.translate(c.getName()));
        }
        return out;
    }

    private static String reason(JsonNode v) throws InvalidMappingException {
        if (v == null || !v.isTextual() || v.textValue().isBlank()) {
            throw new InvalidMappingException("not_a_run_call needs a 'reason'");
        }
        String r = v.textValue().replaceAll("\\p{Cntrl}+", " ").strip();
        if (r.length() > MAX_REASON_CHARS) {
            throw new InvalidMappingException("'reason' is " + r.length() + " characters; a reason is a few words");
        }
        return r;
    }

    /** Keys and values from the reply echo into logs and the next prompt: never at length. */
    private static String shortened(String s) {
        String one = s.replaceAll("\\s+", " ");
        return one.length() <= 40 ? one : one.substring(0, 40) + "...";
    }
}
