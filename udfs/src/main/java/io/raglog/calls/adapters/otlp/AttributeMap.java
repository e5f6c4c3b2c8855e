package io.raglog.calls.adapters.otlp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.schemas.Json;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Span or event attributes under their flat keys, read leniently: instrumentations disagree on whether a token count
 * is an int or a string, a document id a string or an int, a message list a JSON string or a structured value.
 */
public final class AttributeMap {

    private static final AttributeMap EMPTY = new AttributeMap(Map.of());

    private final Map<String, JsonNode> values;

    private AttributeMap(Map<String, JsonNode> values) {
        this.values = values;
    }

    /** The fields of a JSON object in their order; anything else reads as no attributes. */
    public static AttributeMap of(JsonNode object) {
        if (object == null || !object.isObject() || object.isEmpty()) {
            return EMPTY;
        }
        Map<String, JsonNode> values = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> fields = object.fields();
        while (fields.hasNext()) {
            Map.Entry<String, JsonNode> field = fields.next();
            values.put(field.getKey(), field.getValue());
        }
        return new AttributeMap(Collections.unmodifiableMap(values));
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
        String start = prefix + ".";
        TreeMap<Integer, Map<String, JsonNode>> items = new TreeMap<>();
        for (Map.Entry<String, JsonNode> entry : values.entrySet()) {
            String key = entry.getKey();
            if (!key.startsWith(start)) {
                continue;
            }
            int dot = key.indexOf('.', start.length());
            if (dot < 0) {
                continue;
            }
            Integer index = parseIndex(key.substring(start.length(), dot));
            if (index == null) {
                continue;
            }
            items.computeIfAbsent(index, i -> new LinkedHashMap<>()).put(key.substring(dot + 1), entry.getValue());
        }
        List<AttributeMap> list = new ArrayList<>(items.size());
        for (Map<String, JsonNode> item : items.values()) {
            list.add(new AttributeMap(Collections.unmodifiableMap(item)));
        }
        return list;
    }

    private static Integer parseIndex(String text) {
        if (text.isEmpty() || text.length() > 9) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            if (!Character.isDigit(text.charAt(i))) {
                return null;
            }
        }
        return Integer.parseInt(text);
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
