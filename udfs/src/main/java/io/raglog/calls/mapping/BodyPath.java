package io.raglog.calls.mapping;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.adapters.Bodies;
import io.raglog.schemas.CallEvent;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * A path into a captured call's JSON, as a field mapping names it. Two spellings are read:
 * <ul>
 *   <li>simple paths: {@code response.hits[*].doc.body}, {@code request.messages[0].content},
 *       {@code response["@search.score"]} (brackets for keys with dots or spaces), an optional {@code $.} in front;
 *   <li>JSON pointers (RFC 6901) with {@code *} as the wildcard: {@code /response/hits/*}{@code /doc/body}.
 * </ul>
 * An absolute path's first name is {@code request} or {@code response} (that body); a relative path starts at one
 * element of a list, and {@code .} (or an empty path) is the element itself.
 *
 * <p>A path never fails on data: what is absent resolves to nothing, and the caller decides whether that is an error.
 * Only the spelling can be wrong, which {@link #absolute} and {@link #relative} reject with a message that says where.
 */
public final class BodyPath implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Longer than any honest path; a model that writes prose into a path field is caught here. */
    static final int MAX_CHARS = 200;

    private static final Pattern NAME_CHAR = Pattern.compile("[^.\\[\\]\\s\"'/]");

    public enum Root { REQUEST, RESPONSE, ITEM }

    private sealed interface Step extends Serializable permits Field, Index, Wildcard {}

    private record Field(String name) implements Step {}

    private record Index(int index) implements Step {}

    private record Wildcard() implements Step {}

    private final String text;
    private final Root root;
    private final List<Step> steps;

    private BodyPath(String text, Root root, List<Step> steps) {
        this.text = text;
        this.root = root;
        this.steps = List.copyOf(steps);
    }

    /** A path from the request or response body. */
    public static BodyPath absolute(String text) {
        List<Step> steps = parse(text);
        if (steps.isEmpty() || !(steps.get(0) instanceof Field first)) {
            throw new IllegalArgumentException("'" + text + "' must start with request or response");
        }
        Root root;
        switch (first.name().toLowerCase(Locale.ROOT)) {
            case "request" -> root = Root.REQUEST;
            case "response" -> root = Root.RESPONSE;
            default -> throw new IllegalArgumentException("'" + text + "' must start with request or response, not '"
                    + first.name() + "'");
        }
        return new BodyPath(text.strip(), root, steps.subList(1, steps.size()));
    }

    /** A path from one element of a list. */
    public static BodyPath relative(String text) {
        List<Step> steps = parse(text);
        if (!steps.isEmpty() && steps.get(0) instanceof Field first
                && (first.name().equals("request") || first.name().equals("response"))) {
            throw new IllegalArgumentException("'" + text + "' must be relative to one element of the list, not start"
                    + " at " + first.name());
        }
        return new BodyPath(text == null ? "." : text.strip(), Root.ITEM, steps);
    }

    public Root root() {
        return root;
    }

    public boolean hasWildcard() {
        return steps.stream().anyMatch(s -> s instanceof Wildcard);
    }

    /**
     * The same path without a final {@code [*]}: a list field then resolves to the array itself, so an empty list
     * and an absent one can be told apart.
     */
    public BodyPath withoutTrailingWildcard() {
        if (steps.isEmpty() || !(steps.get(steps.size() - 1) instanceof Wildcard)) {
            return this;
        }
        return new BodyPath(text, root, steps.subList(0, steps.size() - 1));
    }

    /** What an absolute path selects in a call: nothing when the body is absent or does not have it. */
    public List<JsonNode> select(CallEvent call) {
        if (root == Root.ITEM) {
            throw new IllegalStateException("'" + text + "' is relative: select it from an element");
        }
        return select(root == Root.REQUEST ? Bodies.request(call) : Bodies.response(call));
    }

    /** What the path selects from {@code start} (a body for an absolute path, an element for a relative one). */
    public List<JsonNode> select(JsonNode start) {
        List<JsonNode> current = new ArrayList<>();
        if (present(start)) {
            current.add(start);
        }
        for (Step step : steps) {
            current = step(current, step);
        }
        return current;
    }

    /** {@link #whereItStops(JsonNode)} for an absolute path in a call. */
    public String whereItStops(CallEvent call) {
        return whereItStops(root == Root.REQUEST ? Bodies.request(call) : Bodies.response(call));
    }

    /**
     * Where the path stops resolving, for a rejection a person (or the model, on its next try) can act on, e.g.
     * {@code "response.hits[*].doc has no 'text' (it holds an object with id, body)"}; null when it resolves.
     */
    public String whereItStops(JsonNode start) {
        List<JsonNode> current = new ArrayList<>();
        if (present(start)) {
            current.add(start);
        } else {
            return (root == Root.ITEM ? "the element" : root.name().toLowerCase(Locale.ROOT)) + " is empty";
        }
        StringBuilder prefix = new StringBuilder(switch (root) {
            case REQUEST -> "request";
            case RESPONSE -> "response";
            case ITEM -> "";
        });
        for (Step step : steps) {
            List<JsonNode> next = step(current, step);
            if (next.isEmpty()) {
                return (prefix.length() == 0 ? "the element" : prefix) + " has no " + describe(step) + " (it holds "
                        + shape(current.get(0)) + ")";
            }
            String spelled = spell(step);
            prefix.append(prefix.length() == 0 && spelled.startsWith(".") ? spelled.substring(1) : spelled);
            current = next;
        }
        return null;
    }

    private static List<JsonNode> step(List<JsonNode> current, Step step) {
        List<JsonNode> next = new ArrayList<>();
        for (JsonNode raw : current) {
            // In-house services double-encode nested documents ("payload": "{\"text\": ...}"): read through them.
            JsonNode node = raw.isTextual() ? Bodies.json(raw) : raw;
            if (step instanceof Field f) {
                if (node.isObject()) {
                    addIfPresent(next, node.get(f.name()));
                } else if (node.isArray() && f.name().matches("\\d{1,9}")) {
                    addIfPresent(next, node.get(Integer.parseInt(f.name()))); // a pointer token on an array
                }
            } else if (step instanceof Index i) {
                if (node.isArray()) {
                    addIfPresent(next, node.get(i.index()));
                }
            } else if (node.isArray()) {
                node.forEach(element -> addIfPresent(next, element));
            }
        }
        return next;
    }

    private static void addIfPresent(List<JsonNode> into, JsonNode node) {
        if (present(node)) {
            into.add(node);
        }
    }

    private static boolean present(JsonNode node) {
        return node != null && !node.isNull() && !node.isMissingNode();
    }

    private static String describe(Step step) {
        if (step instanceof Field f) {
            return "'" + f.name() + "'";
        }
        if (step instanceof Index i) {
            return "element [" + i.index() + "]";
        }
        return "elements to take with [*]";
    }

    private static String spell(Step step) {
        if (step instanceof Field f) {
            return NAME_CHAR.matcher(f.name()).replaceAll("").isEmpty() ? "." + f.name() : "[\"" + f.name() + "\"]";
        }
        if (step instanceof Index i) {
            return "[" + i.index() + "]";
        }
        return "[*]";
    }

    /** A short account of a JSON value, with an object's first keys, so a wrong pointer's rejection shows the way. */
    static String shape(JsonNode node) {
        JsonNode n = node.isTextual() ? Bodies.json(node) : node;
        if (n.isObject()) {
            List<String> keys = new ArrayList<>();
            n.fieldNames().forEachRemaining(k -> {
                if (keys.size() < 8) {
                    keys.add(k);
                }
            });
            return keys.isEmpty() ? "an empty object" : "an object with " + String.join(", ", keys)
                    + (n.size() > keys.size() ? ", ..." : "");
        }
        if (n.isArray()) {
            return "an array of " + n.size();
        }
        return Bodies.describe(n);
    }

    // ---- spelling ----

    private static List<Step> parse(String raw) {
        if (raw == null) {
            return List.of();
        }
        String text = raw.strip();
        if (text.length() > MAX_CHARS) {
            throw new IllegalArgumentException("path is " + text.length() + " characters, more than " + MAX_CHARS);
        }
        if (text.isEmpty() || text.equals(".") || text.equals("$") || text.equals("@")) {
            return List.of();
        }
        return text.startsWith("/") ? pointer(text) : simple(text);
    }

    private static List<Step> pointer(String text) {
        List<Step> steps = new ArrayList<>();
        for (String token : text.substring(1).split("/", -1)) {
            if (token.isEmpty()) {
                throw new IllegalArgumentException("'" + text + "' has an empty pointer token");
            }
            String name = token.replace("~1", "/").replace("~0", "~");
            steps.add(name.equals("*") ? new Wildcard() : new Field(name));
        }
        return steps;
    }

    private static List<Step> simple(String original) {
        String text = original;
        if (text.startsWith("$.")) {
            text = text.substring(2);
        } else if (text.startsWith("$[")) {
            text = text.substring(1);
        }
        List<Step> steps = new ArrayList<>();
        int i = 0;
        boolean expectName = true;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '[') {
                int close = text.indexOf(']', i);
                if (close < 0) {
                    throw new IllegalArgumentException("'" + original + "' has an unclosed [");
                }
                String inside = text.substring(i + 1, close).strip();
                if ((inside.startsWith("\"") || inside.startsWith("'")) && inside.length() >= 2
                        && inside.charAt(inside.length() - 1) == inside.charAt(0)) {
                    String name = inside.substring(1, inside.length() - 1);
                    if (name.indexOf(']') >= 0) {
                        throw new IllegalArgumentException("'" + original + "': a quoted key cannot hold ]");
                    }
                    steps.add(new Field(name));
                } else if (inside.equals("*")) {
                    steps.add(new Wildcard());
                } else if (inside.matches("\\d{1,9}")) {
                    steps.add(new Index(Integer.parseInt(inside)));
                } else {
                    throw new IllegalArgumentException("'" + original + "': [" + inside
                            + "] is not [*], an index or a quoted key");
                }
                i = close + 1;
                expectName = false;
            } else if (c == '.') {
                if (expectName) {
                    throw new IllegalArgumentException("'" + original + "' has an empty name at character " + (i + 1));
                }
                i++;
                expectName = true;
                if (i == text.length()) {
                    throw new IllegalArgumentException("'" + original + "' ends with a dot");
                }
            } else {
                if (!expectName) {
                    throw new IllegalArgumentException("'" + original + "': expected . or [ at character " + (i + 1));
                }
                int start = i;
                while (i < text.length() && NAME_CHAR.matcher(String.valueOf(text.charAt(i))).matches()) {
                    i++;
                }
                if (i == start) {
                    throw new IllegalArgumentException("'" + original + "': unexpected '" + c + "' at character "
                            + (i + 1));
                }
                steps.add(new Field(text.substring(start, i)));
                expectName = false;
            }
        }
        return steps;
    }

    @Override
    public String toString() {
        return text;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BodyPath other && other.root == root && other.steps.equals(steps);
    }

    @Override
    public int hashCode() {
        return root.hashCode() * 31 + steps.hashCode();
    }
}
