package io.raglog.calls.adapters.otlp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.calls.AdapterException;
import io.raglog.ingest.JsonTrees;
import io.raglog.schemas.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;

/**
 * Span or event attributes under their flat keys, read leniently: instrumentations disagree on whether a token count
 * is an int or a string, a document id a string or an int, a message list a JSON string or a structured value.
 */
public final class AttributeMap {

    private static final AttributeMap EMPTY = new AttributeMap(JsonTrees.objectNode(0));

    /**
     * The attributes, read and never written to: a span's own object as decoded (its call's request body), or a list
     * item's. Copied into a map of their own, and each list item into another, they were a fifth of what decoding and
     * classifying an OTLP message allocated (JMH {@code OtlpDecodeBenchmarks}, issue #27).
     */
    private final ObjectNode values;

    private AttributeMap(ObjectNode values) {
        this.values = values;
    }

    /** The fields of a JSON object in their order; anything else reads as no attributes. */
    public static AttributeMap of(JsonNode object) {
        if (object == null || !object.isObject() || object.isEmpty()) {
            return EMPTY;
        }
        return new AttributeMap((ObjectNode) object);
    }

    public boolean isEmpty() {
        return values.isEmpty();
    }

    public boolean has(String key) {
        JsonNode value = values.get(key);
        return value != null && !value.isNull();
    }

    /** The raw value, null when absent or JSON null. */
    public JsonNode get(String key) {
        JsonNode value = values.get(key);
        return value == null || value.isNull() ? null : value;
    }

    public String string(String key) {
        return text(values.get(key));
    }

    /** Lower-cased, for enum-like attributes written in varying case ({@code LLM}, {@code llm}). */
    public String lowerString(String key) {
        String value = string(key);
        return value == null ? null : value.strip().toLowerCase(Locale.ROOT);
    }

    public Integer integer(String key) {
        return integer(values.get(key));
    }

    /** The first of these keys with a non-blank text value: for attributes renamed between convention versions. */
    public String firstString(String... keys) {
        for (String key : keys) {
            String value = string(key);
            if (value != null && !value.isBlank()) {
                return value;
            }
        }
        return null;
    }

    public Integer firstInteger(String... keys) {
        for (String key : keys) {
            Integer value = integer(key);
            if (value != null) {
                return value;
            }
        }
        return null;
    }

    public Double decimal(String key) {
        return decimal(values.get(key));
    }

    public Boolean bool(String key) {
        JsonNode value = values.get(key);
        if (value == null) {
            return null;
        }
        if (value.isBoolean()) {
            return value.booleanValue();
        }
        if (value.isTextual() && ("true".equalsIgnoreCase(value.textValue()) || "false".equalsIgnoreCase(value.textValue()))) {
            return Boolean.parseBoolean(value.textValue());
        }
        return null;
    }

    /**
     * A structured value as recorded, or a JSON string parsed (semantic conventions allow both for message lists and
     * documents); a plain string comes back as a text node. Null when absent.
     *
     * @throws AdapterException when the string looks like JSON but does not parse
     */
    public JsonNode json(String key) throws AdapterException {
        JsonNode value = get(key);
        if (value == null || !value.isTextual()) {
            return value;
        }
        String text = value.textValue().strip();
        if (!(text.startsWith("[") || text.startsWith("{"))) {
            return value;
        }
        return parse(key, text);
    }

    /**
     * A value the SDK JSON-encoded whatever its type, as MLflow writes every span attribute: what {@link #json} gives,
     * and a JSON string comes back without its quotes ({@code "\"RETRIEVER\""} reads as {@code RETRIEVER}). Text that
     * was set without encoding comes back as it is, as MLflow itself reads it.
     *
     * @throws AdapterException when the string looks like JSON but does not parse
     */
    public JsonNode jsonEncoded(String key) throws AdapterException {
        JsonNode value = get(key);
        if (value != null && value.isTextual() && value.textValue().strip().startsWith("\"")) {
            return parse(key, value.textValue().strip());
        }
        return json(key);
    }

    private static JsonNode parse(String key, String text) throws AdapterException {
        try {
            return Json.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new AdapterException("attribute " + key + " is not valid JSON: " + e.getOriginalMessage());
        }
    }

    /**
     * The items of a list that instrumentations flatten into indexed keys ({@code llm.input_messages.0.message.role},
     * {@code retrieval.documents.3.document.id}), in index order, each with the keys below its index. Gaps in the
     * indexes (a truncated list) are skipped rather than filled.
     */
    public List<AttributeMap> list(String prefix) {
        List<ObjectNode> items = new ArrayList<>(); // by index, below DENSE_INDEXES
        TreeMap<Integer, ObjectNode> beyond = null; // the rest: an index far out must not size a list
        int from = prefix.length() + 1; // where the index starts, after the prefix and its dot
        for (Iterator<String> keys = values.fieldNames(); keys.hasNext(); ) {
            String key = keys.next();
            if (key.length() <= from || key.charAt(prefix.length()) != '.' || !key.startsWith(prefix)) {
                continue;
            }
            int dot = key.indexOf('.', from);
            int index = dot < 0 ? -1 : index(key, from, dot);
            if (index < 0) {
                continue;
            }
            ObjectNode item;
            if (index < DENSE_INDEXES) {
                while (items.size() <= index) {
                    items.add(null);
                }
                item = items.get(index);
                if (item == null) {
                    item = JsonTrees.objectNode(4);
                    items.set(index, item);
                }
            } else {
                beyond = beyond == null ? new TreeMap<>() : beyond;
                item = beyond.computeIfAbsent(index, i -> JsonTrees.objectNode(4));
            }
            item.set(key.substring(dot + 1), values.get(key));
        }
        List<AttributeMap> list = new ArrayList<>(items.size());
        for (ObjectNode item : items) {
            if (item != null) {
                list.add(new AttributeMap(item));
            }
        }
        if (beyond != null) {
            beyond.values().forEach(item -> list.add(new AttributeMap(item)));
        }
        return list;
    }

    /** List indexes held in a list of their size; larger ones, rare, in a sorted map. */
    private static final int DENSE_INDEXES = 256;

    /**
     * The index whose digits run from {@code from} to {@code to}, as {@code Integer.parseInt} reads them (any Unicode
     * decimal digit); -1 when they are not all digits or more than 9, so that an index always fits an int.
     */
    private static int index(String key, int from, int to) {
        if (to == from || to - from > 9) {
            return -1;
        }
        int index = 0;
        for (int i = from; i < to; i++) {
            int digit = Character.digit(key.charAt(i), 10);
            if (digit < 0) {
                return -1;
            }
            index = index * 10 + digit;
        }
        return index;
    }

    /** Text of a scalar (a numeric document id reads as its digits); null for absent, null and containers. */
    public static String text(JsonNode value) {
        if (value == null || value.isNull() || value.isContainerNode() || value.isMissingNode()) {
            return null;
        }
        return value.isTextual() ? value.textValue() : value.asText();
    }

    public static Integer integer(JsonNode value) {
        if (value == null) {
            return null;
        }
        if (value.isIntegralNumber() && value.canConvertToInt()) {
            return value.intValue();
        }
        if (value.isFloatingPointNumber() && value.doubleValue() == Math.rint(value.doubleValue())
                && Math.abs(value.doubleValue()) <= Integer.MAX_VALUE) {
            return (int) value.doubleValue();
        }
        if (value.isTextual()) {
            try {
                return Integer.parseInt(value.textValue().strip());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    public static Double decimal(JsonNode value) {
        if (value == null) {
            return null;
        }
        if (value.isNumber()) {
            return value.doubleValue();
        }
        if (value.isTextual()) {
            try {
                return Double.parseDouble(value.textValue().strip());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }
}
