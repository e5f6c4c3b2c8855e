package io.raglog.assemble;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Splits a rewriter's reply into the queries it wrote. Multi-query rewriters answer one query per line, often
 * numbered or bulleted; a single-query rewriter answers one line, sometimes quoted or labelled ("Rewritten query:").
 * Hosted chat models often open a list with a line of their own ("Here are three alternative versions of the
 * question:"): that line introduces the queries and is none of them. Read as one, it lost every key term of the
 * question ({@code rewrite.worst_output_lost_share} 1), as a rewrite that dropped the question would. A rewriter that
 * answers through structured output or function calling ({@code {"queries": ["…", "…"]}}) wrote the strings in its
 * JSON, not the JSON: read whole, its queries counted as one holding the words of all, and one that lost the question's
 * year hid behind the others.
 */
final class RewriteQueries {

    private static final Pattern LINE_BREAK = Pattern.compile("\\R");
    private static final Pattern LIST_MARKER = Pattern.compile("^\\s*(?:\\d+[.)]|[-*\u2022]|(?:(?:rewritten|"
            + "reformulated|optimi[sz]ed|improved|standalone|search|alternative|new)\\s+)?(?:query|question)\\s*\\d*:)"
            + "\\s*", Pattern.CASE_INSENSITIVE);
    private static final Pattern EMPHASIS = Pattern.compile("\\*\\*|__");
    /** A line that only introduces what follows: it ends with a colon and holds no sentence's end before it. */
    private static final Pattern INTRODUCTION = Pattern.compile("^[^.!?]{0,120}:$");

    private RewriteQueries() {}

    static List<String> split(String output) {
        List<String> queries = new ArrayList<>();
        if (output == null) {
            return queries;
        }
        if (fromJson(output, queries)) {
            return queries;
        }
        for (String line : LINE_BREAK.split(output)) {
            String q = unquote(LIST_MARKER.matcher(EMPHASIS.matcher(line).replaceAll("")).replaceFirst("").strip());
            if (!q.isEmpty()) {
                queries.add(q);
            }
        }
        if (queries.size() > 1 && INTRODUCTION.matcher(queries.get(0)).matches()) {
            queries.remove(0);
        }
        return queries;
    }

    /**
     * The queries of a reply that is one JSON value: the strings of an array, or of an object's fields that name a
     * query or a question ({@code queries}, {@code sub_questions}, {@code search_query}), in order. False, and
     * nothing added, when the reply is not JSON or holds no such string.
     */
    private static boolean fromJson(String output, List<String> queries) {
        String text = output.strip();
        if (text.isEmpty() || text.charAt(0) != '{' && text.charAt(0) != '[') {
            return false;
        }
        JsonNode node;
        try {
            node = Json.MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            return false; // a line that only starts like JSON: read as lines
        }
        int before = queries.size();
        if (node.isArray()) {
            strings(node, queries);
        } else if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                String name = field.getKey().toLowerCase(Locale.ROOT);
                if (name.contains("quer") || name.contains("question") || name.contains("search")
                        || name.contains("rewrit")) {
                    strings(field.getValue(), queries);
                }
            }
        }
        return queries.size() > before;
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

    private static String unquote(String s) {
        if (s.length() >= 2 && (s.startsWith("\"") && s.endsWith("\"") || s.startsWith("'") && s.endsWith("'"))) {
            return s.substring(1, s.length() - 1).strip();
        }
        return s;
    }
}
