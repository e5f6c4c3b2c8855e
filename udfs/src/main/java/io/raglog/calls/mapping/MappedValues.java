package io.raglog.calls.mapping;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.adapters.Bodies;
import io.raglog.calls.adapters.PassageText;
import io.raglog.calls.adapters.Vectors;
import io.raglog.schemas.CallEvent;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns what a mapped path selected into the values a {@code CallDetail} holds, with the type checks the built-in
 * adapters make. Errors name the mapping field and its path ({@code retrieve.result_score (relevance)}), because the
 * reader of a dead letter or of a rejected proposal has to find which part of the mapping did not fit.
 */
final class MappedValues {

    private MappedValues() {}

    /** A compiled path and the mapping field it came from. */
    record Named(String field, BodyPath path) implements Serializable {

        static Named absolute(String field, String path) {
            return path == null ? null : new Named(field, compile(field, path, true));
        }

        static Named relative(String field, String path) {
            return path == null ? null : new Named(field, compile(field, path, false));
        }

        private static BodyPath compile(String field, String path, boolean absolute) {
            try {
                return absolute ? BodyPath.absolute(path) : BodyPath.relative(path);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(field + ": " + e.getMessage(), e);
            }
        }

        List<JsonNode> in(CallEvent call) {
            return path.select(call);
        }

        List<JsonNode> in(JsonNode element) {
            return path.select(element);
        }

        String label() {
            return field + " (" + path + ")";
        }
    }

    /** Text: a string, a number (ids), or several strings joined by a line break (text blocks, a list of parts). */
    static String text(List<JsonNode> nodes, Named from) throws AdapterException {
        if (nodes.isEmpty()) {
            return null;
        }
        List<String> parts = new ArrayList<>();
        for (JsonNode n : nodes) {
            if (n.isTextual() || n.isNumber()) {
                parts.add(n.asText());
            } else if (n.isArray()) {
                parts.add(Bodies.contentText(n, from.label())); // content parts: strings or {text}
            } else {
                throw new AdapterException(from.label() + " is " + Bodies.describe(n) + ", expected text");
            }
        }
        return String.join("\n", parts);
    }

    static String requireText(List<JsonNode> nodes, Named from) throws AdapterException {
        String v = text(nodes, from);
        if (v == null) {
            throw new AdapterException(from.label() + " is missing");
        }
        return v;
    }

    /** A list of texts: each selected string, and the strings of each selected array ("input": "q" or ["q1", "q2"]). */
    static List<String> texts(List<JsonNode> nodes, Named from) throws AdapterException {
        List<String> out = new ArrayList<>();
        for (JsonNode n : nodes) {
            if (n.isTextual()) {
                out.add(n.textValue());
            } else if (n.isArray()) {
                int i = 0;
                for (JsonNode t : n) {
                    if (!t.isTextual()) {
                        throw new AdapterException(from.label() + "[" + i + "] is " + Bodies.describe(t)
                                + ", expected text");
                    }
                    out.add(t.textValue());
                    i++;
                }
            } else {
                throw new AdapterException(from.label() + " is " + Bodies.describe(n) + ", expected text or texts");
            }
        }
        return out;
    }

    /** A label we only show (a model name): never an error, null when absent or not text. */
    static String label(List<JsonNode> nodes) {
        return nodes.size() == 1 && nodes.get(0).isTextual() ? nodes.get(0).textValue() : null;
    }

    static Double number(List<JsonNode> nodes, Named from) throws AdapterException {
        JsonNode n = single(nodes, from);
        if (n == null) {
            return null;
        }
        if (n.isNumber()) {
            return n.doubleValue();
        }
        if (n.isTextual()) {
            try {
                return Double.valueOf(n.textValue().strip()); // services that stringify their scores
            } catch (NumberFormatException e) {
                // fall through to the type error
            }
        }
        throw new AdapterException(from.label() + " is " + Bodies.describe(n) + ", expected a number");
    }

    static Integer integer(List<JsonNode> nodes, Named from) throws AdapterException {
        JsonNode n = single(nodes, from);
        if (n == null) {
            return null;
        }
        if (n.isIntegralNumber() && n.canConvertToInt()) {
            return n.intValue();
        }
        if (n.isTextual() && n.textValue().strip().matches("\\d{1,9}")) {
            return Integer.parseInt(n.textValue().strip());
        }
        throw new AdapterException(from.label() + " is " + Bodies.describe(n) + ", expected an integer");
    }

    /** At most one value: a scalar field whose path fans out over an array is a mapping that does not fit. */
    static JsonNode single(List<JsonNode> nodes, Named from) throws AdapterException {
        if (nodes.isEmpty()) {
            return null;
        }
        if (nodes.size() > 1) {
            throw new AdapterException(from.label() + " selects " + nodes.size() + " values, expected one");
        }
        return nodes.get(0);
    }

    /**
     * The elements of a list field: a path that selects one array gives its elements, a path with {@code [*]} gives
     * what it selected.
     */
    static List<JsonNode> elements(List<JsonNode> nodes) {
        if (nodes.size() == 1 && nodes.get(0).isArray()) {
            List<JsonNode> out = new ArrayList<>();
            nodes.get(0).forEach(out::add);
            return out;
        }
        return nodes;
    }

    static float[] vector(JsonNode node, Named from) throws AdapterException {
        return Vectors.decode(node, from.label());
    }

    /** Vectors: each selected node is one, unless a single selected array holds them all ({@code [[...], [...]]}). */
    static List<float[]> vectors(List<JsonNode> nodes, Named from) throws AdapterException {
        List<JsonNode> each = nodes;
        if (nodes.size() == 1 && nodes.get(0).isArray() && nodes.get(0).size() > 0
                && !nodes.get(0).get(0).isNumber()) {
            each = elements(nodes);
        }
        List<float[]> out = new ArrayList<>(each.size());
        for (JsonNode n : each) {
            out.add(vector(n, from));
        }
        return out;
    }

    /**
     * A passage or document's text: the mapped field when there is one; else the element itself when it is text, or
     * the text field a store would use ({@link PassageText}).
     */
    static String elementText(JsonNode element, Named textField) throws AdapterException {
        if (textField != null) {
            return text(textField.in(element), textField);
        }
        if (element.isTextual()) {
            return element.textValue();
        }
        return PassageText.find(element);
    }
}
