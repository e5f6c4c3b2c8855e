package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.calls.AdapterException;
import io.raglog.calls.ApiAdapter;
import io.raglog.calls.CallDetail;
import io.raglog.calls.NotARunCall;
import io.raglog.calls.RetrieveDetail;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import io.raglog.schemas.Passage;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Weaviate's REST and GraphQL API. A retrieval is {@code POST /v1/graphql} with a
 * {@code Get { Class(nearVector: {vector: [...]}, limit: N) { text _additional { id distance } } }} query; nearText,
 * hybrid and bm25 carry the query text instead (Weaviate vectorises it). Object and batch writes are index building;
 * schema, meta and Aggregate queries are admin.
 */
public final class WeaviateAdapter implements ApiAdapter, Serializable {

    private static final long serialVersionUID = 1L;

    private static final Pattern GET_CLASS = Pattern.compile("\\bGet\\s*\\{\\s*([A-Za-z_][A-Za-z0-9_]*)\\s*\\(");
    private static final Pattern VECTOR = Pattern.compile("\\bvector\\s*:\\s*(\\[[^\\]]*\\]|\\$[A-Za-z_][A-Za-z0-9_]*)");
    private static final Pattern CONCEPTS = Pattern.compile("\\bconcepts\\s*:\\s*(\\[[^\\]]*\\]|\\$[A-Za-z_]\\w*)");
    private static final Pattern QUERY_STRING =
            Pattern.compile("\\bquery\\s*:\\s*(\"(?:[^\"\\\\]|\\\\.)*\"|\\$[A-Za-z_]\\w*)");
    private static final Pattern LIMIT = Pattern.compile("\\blimit\\s*:\\s*(\\d+|\\$[A-Za-z_]\\w*)");
    private static final Pattern STRING = Pattern.compile("\"((?:[^\"\\\\]|\\\\.)*)\"");

    @Override
    public String name() {
        return "weaviate";
    }

    @Override
    public boolean accepts(CallEvent call) {
        Endpoint e = Endpoint.of(call);
        return e.pathEndsWith("/v1/graphql") || e.pathContains("/v1/objects") || e.pathContains("/v1/batch/")
                || e.pathContains("/v1/schema") || e.pathEndsWith("/v1/meta") || e.pathContains("/v1/.well-known/");
    }

    @Override
    public CallDetail read(CallEvent call) throws AdapterException {
        Endpoint e = Endpoint.of(call);
        if (e.pathContains("/v1/objects") || e.pathContains("/v1/batch/")) {
            return e.isGet() ? new NotARunCall(name(), "object lookup, no similarity query")
                    : new NotARunCall(name(), "index building: object writes (" + e.method() + " " + e.path() + ")");
        }
        if (!e.pathEndsWith("/v1/graphql")) {
            return new NotARunCall(name(), "schema or cluster admin (" + e.method() + " " + e.path() + ")");
        }
        JsonNode request = Bodies.requestObject(call);
        String query = Bodies.requireText(request, "query");
        JsonNode variables = request.path("variables");
        Matcher get = GET_CLASS.matcher(query);
        if (!get.find()) {
            return new NotARunCall(name(), "GraphQL without a Get search (Aggregate, Explore or a listing)");
        }
        String className = get.group(1);
        String args = balancedArguments(query, get.end() - 1);
        float[] vector = vectorOf(operator(args, "nearVector"), operator(args, "hybrid"), variables);
        String text = textOf(args, variables);
        if (vector == null && text == null) {
            return new NotARunCall(name(), "Get of " + className + " without nearVector, nearText, hybrid or bm25");
        }
        Integer limit = limitOf(args, variables);
        List<Passage> passages = Bodies.succeeded(call) ? passages(Bodies.responseJson(call), className) : List.of();
        return new RetrieveDetail(name(), "weaviate", className, text, vector, limit, passages);
    }

    private static List<Passage> passages(JsonNode reply, String className) throws AdapterException {
        JsonNode objects = reply.path("data").path("Get").get(className);
        if (objects == null || objects.isNull()) {
            return List.of(); // a GraphQL error reply: {"data": {"Get": {"Class": null}}, "errors": [...]}
        }
        if (!objects.isArray()) {
            throw new AdapterException("data.Get." + className + " is " + Bodies.describe(objects) + ", expected objects");
        }
        List<Passage> out = new ArrayList<>();
        int rank = 1;
        for (JsonNode o : objects) {
            if (!o.isObject()) {
                throw new AdapterException("data.Get." + className + "[" + (rank - 1) + "] is " + Bodies.describe(o)
                        + ", expected an object");
            }
            JsonNode additional = o.path("_additional");
            ObjectNode properties = o.deepCopy();
            properties.remove("_additional");
            String text = PassageText.find(properties);
            out.add(new Passage(Passages.id(additional.get("id"), text), text, score(additional), rank++));
        }
        return List.copyOf(out);
    }

    /**
     * Higher is closer, whatever Weaviate returned: certainty and hybrid/bm25 {@code score} already are; a
     * {@code distance} (cosine by default) becomes {@code 1 - distance}, the cosine similarity.
     */
    private static Double score(JsonNode additional) {
        for (String key : List.of("certainty", "score")) {
            JsonNode v = additional.get(key);
            if (v != null && (v.isNumber() || (v.isTextual() && isNumber(v.textValue())))) {
                return v.isNumber() ? v.doubleValue() : Double.parseDouble(v.textValue());
            }
        }
        JsonNode d = additional.get("distance");
        return d != null && d.isNumber() ? 1.0 - d.doubleValue() : null;
    }

    private static float[] vectorOf(String nearVector, String hybrid, JsonNode variables) throws AdapterException {
        for (String op : new String[] {nearVector, hybrid}) {
            if (op == null) {
                continue;
            }
            Matcher m = VECTOR.matcher(op);
            if (m.find()) {
                JsonNode v = literalOrVariable(m.group(1), variables);
                if (v.isArray()) {
                    return Vectors.fromArray(v, "nearVector.vector");
                }
            }
        }
        return null;
    }

    private static String textOf(String args, JsonNode variables) throws AdapterException {
        String nearText = operator(args, "nearText");
        if (nearText != null) {
            Matcher m = CONCEPTS.matcher(nearText);
            if (m.find()) {
                JsonNode concepts = literalOrVariable(m.group(1), variables);
                List<String> words = new ArrayList<>();
                concepts.forEach(c -> words.add(c.asText()));
                return words.isEmpty() ? null : String.join(" ", words);
            }
        }
        for (String name : List.of("hybrid", "bm25")) {
            String op = operator(args, name);
            if (op != null) {
                Matcher m = QUERY_STRING.matcher(op);
                if (m.find()) {
                    JsonNode q = literalOrVariable(m.group(1), variables);
                    if (q.isTextual() && !q.textValue().isBlank()) {
                        return q.textValue();
                    }
                }
            }
        }
        return null;
    }

    private static Integer limitOf(String args, JsonNode variables) throws AdapterException {
        Matcher m = LIMIT.matcher(stripOperators(args));
        if (!m.find()) {
            return null;
        }
        JsonNode v = literalOrVariable(m.group(1), variables);
        return v.canConvertToInt() ? v.intValue() : null;
    }

    /** The {@code {...}} argument of an operator such as {@code nearVector: {...}}, or null when absent. */
    private static String operator(String args, String name) {
        Matcher m = Pattern.compile("\\b" + name + "\\s*:\\s*\\{").matcher(args);
        if (!m.find()) {
            return null;
        }
        return balanced(args, m.end() - 1, '{', '}');
    }

    /** The arguments with operator objects removed, so a nested {@code limit} is not mistaken for the search's. */
    private static String stripOperators(String args) {
        StringBuilder sb = new StringBuilder();
        int depth = 0;
        boolean inString = false;
        for (int i = 0; i < args.length(); i++) {
            char c = args.charAt(i);
            if (c == '"' && (i == 0 || args.charAt(i - 1) != '\\')) {
                inString = !inString;
            }
            if (!inString && (c == '{' || c == '[')) {
                depth++;
            }
            if (depth == 0) {
                sb.append(c);
            }
            if (!inString && (c == '}' || c == ']')) {
                depth--;
            }
        }
        return sb.toString();
    }

    private static String balancedArguments(String query, int openParen) throws AdapterException {
        String args = balanced(query, openParen, '(', ')');
        if (args == null) {
            throw new AdapterException("GraphQL query has unbalanced arguments after Get");
        }
        return args;
    }

    /** The text between the bracket at {@code open} and its match, skipping quoted strings; null if unbalanced. */
    private static String balanced(String s, int open, char opening, char closing) {
        int depth = 0;
        boolean inString = false;
        for (int i = open; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' && s.charAt(i - 1) != '\\') {
                inString = !inString;
            } else if (!inString && c == opening) {
                depth++;
            } else if (!inString && c == closing && --depth == 0) {
                return s.substring(open + 1, i);
            }
        }
        return null;
    }

    /** A GraphQL literal (a list, a string, a number) as JSON, or the value of a {@code $variable}. */
    private static JsonNode literalOrVariable(String token, JsonNode variables) throws AdapterException {
        if (token.startsWith("$")) {
            JsonNode v = variables.get(token.substring(1));
            if (v == null) {
                throw new AdapterException("GraphQL variable " + token + " is not in 'variables'");
            }
            return v;
        }
        if (token.startsWith("[")) {
            String inner = token.substring(1, token.length() - 1).strip();
            List<String> items = new ArrayList<>();
            Matcher strings = STRING.matcher(inner);
            boolean quoted = false;
            while (strings.find()) {
                quoted = true;
                items.add(unescape(strings.group(1)));
            }
            ArrayNode out = Json.MAPPER.createArrayNode();
            if (quoted) {
                items.forEach(out::add);
                return out;
            }
            if (!inner.isEmpty()) {
                for (String n : inner.split("\\s*,\\s*|\\s+")) {
                    try {
                        out.add(Double.parseDouble(n));
                    } catch (NumberFormatException e) {
                        throw new AdapterException("GraphQL vector has a non-number '" + n + "'");
                    }
                }
            }
            return out;
        }
        if (token.startsWith("\"")) {
            return Json.MAPPER.getNodeFactory().textNode(unescape(token.substring(1, token.length() - 1)));
        }
        return Json.MAPPER.getNodeFactory().numberNode(Long.parseLong(token));
    }

    private static String unescape(String s) {
        return s.replace("\\\"", "\"").replace("\\n", "\n").replace("\\\\", "\\");
    }

    private static boolean isNumber(String s) {
        try {
            Double.parseDouble(s);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }
}
