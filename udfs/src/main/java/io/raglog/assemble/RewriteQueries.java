package io.raglog.assemble;

import io.raglog.calls.ChatMessage;
import io.raglog.calls.JsonQueries;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
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
    /**
     * A list item's number ("1.", "2)") is at most two digits and no digit follows it: "51.6% were against" opens with
     * a number, not with item 51 (read as one, the query lost "51.6"), nor does "1906. The rules" open with item 1906.
     */
    private static final Pattern LIST_MARKER = Pattern.compile("^\\s*(?:\\d{1,2}[.)](?!\\d)|[-*\u2022]|(?:(?:rewritten|"
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
            if (line.startsWith("{") && fromJson(line, queries)) {
                continue; // one of several tool calls, a line each (an agent searching for two things at once)
            }
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
     * The queries an agent sent its search tool in the earlier turns its conversation carries: its assistant messages'
     * tool calls, read as JSON (a line each), normalised. A plain answer of an earlier turn is none.
     */
    static Set<String> searchedBefore(List<ChatMessage> messages) {
        Set<String> searched = Set.of();
        for (ChatMessage m : messages) {
            if (!"assistant".equals(m.role()) || m.content() == null || !m.content().startsWith("{")) {
                continue;
            }
            for (String line : LINE_BREAK.split(m.content())) {
                for (String q : line.startsWith("{") ? JsonQueries.of(line) : List.<String>of()) {
                    searched = searched.isEmpty() ? new LinkedHashSet<>() : searched;
                    searched.add(Texts.norm(q));
                }
            }
        }
        return searched;
    }

    /** The queries of a reply that is one JSON value ({@link JsonQueries}); false, and none added, when none. */
    private static boolean fromJson(String output, List<String> queries) {
        List<String> json = JsonQueries.of(output);
        queries.addAll(json);
        return !json.isEmpty();
    }

    private static String unquote(String s) {
        if (s.length() >= 2 && (s.startsWith("\"") && s.endsWith("\"") || s.startsWith("'") && s.endsWith("'"))) {
            return s.substring(1, s.length() - 1).strip();
        }
        return s;
    }
}
