package io.raglog.calls;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Search queries a model wrote as JSON rather than as text: a rewriter's structured output ({@code {"queries": ["…",
 * "…"]}}) or the arguments of a search tool an agent called ({@code {"query": "…", "top_k": 5}}). The strings of an
 * array, or of an object's fields that name a query, a question, a search or a rewrite, in order.
 */
public final class JsonQueries {

    private JsonQueries() {}

    /** The queries of a reply that is one JSON value; empty when it is not JSON or holds no such string. */
    public static List<String> of(String output) {
        List<String> queries = new ArrayList<>();
        JsonNode node = json(output);
        if (node != null && node.isArray()) {
            strings(node, queries);
        } else if (node != null && node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                if (namesAQuery(field.getKey())) {
                    strings(field.getValue(), queries);
                }
            }
        }
        return queries;
    }

    /**
     * Whether a reply is a search and nothing else: one JSON object with a query in it and no field that names an
     * answer (a structured generator's {@code {"question": …, "answer": …}} echoes its question beside the answer).
     * Such a reply is what a model sends to a search tool, or a rewriter's structured output: never an answer.
     */
    public static boolean searchOnly(String output) {
        JsonNode node = json(output);
        if (node == null || !node.isObject()) {
            return false;
        }
        boolean query = false;
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            String name = field.getKey().toLowerCase(Locale.ROOT);
            if (name.contains("answer") || name.contains("response") || name.contains("reply")) {
                return false;
            }
            query |= namesAQuery(name) && holdsAString(field.getValue());
        }
        return query;
    }

    private static JsonNode json(String output) {
        if (output == null) {
            return null;
        }
        String text = output.strip();
        if (text.isEmpty() || text.charAt(0) != '{' && text.charAt(0) != '[') {
            return null;
        }
        try {
            return Json.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            return null; // a line that only starts like JSON
        }
    }

    private static boolean namesAQuery(String field) {
        String name = field.toLowerCase(Locale.ROOT);
        return name.contains("quer") || name.contains("question") || name.contains("search")
                || name.contains("rewrit");
    }

    /** Whether {@link #strings} would find a string in {@code node}. */
    private static boolean holdsAString(JsonNode node) {
        if (node.isTextual()) {
            return !node.textValue().isBlank();
        }
        for (JsonNode element : node.isArray() ? node : List.<JsonNode>of()) {
            if (element.isTextual() && !element.textValue().isBlank()) {
                return true;
            }
        }
        return false;
    }

    private static void strings(JsonNode node, List<String> into) {
        if (node.isTextual() && !node.textValue().isBlank()) {
            into.add(node.textValue().strip());
        } else if (node.isArray()) {
            for (JsonNode element : node) {
                if (element.isTextual() && !element.textValue().isBlank()) {
                    into.add(element.textValue().strip());
                }
            }
        }
    }
}
