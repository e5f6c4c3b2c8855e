package io.raglog.assemble;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Splits a rewriter's reply into the queries it wrote. Multi-query rewriters answer one query per line, often
 * numbered or bulleted; a single-query rewriter answers one line, sometimes quoted.
 */
final class RewriteQueries {

    private static final Pattern LINE_BREAK = Pattern.compile("\\R");
    private static final Pattern LIST_MARKER = Pattern.compile("^\\s*(?:\\d+[.)]|[-*\u2022]|Query\\s*\\d*:)\\s*",
            Pattern.CASE_INSENSITIVE);

    private RewriteQueries() {}

    static List<String> split(String output) {
        List<String> queries = new ArrayList<>();
        if (output == null) {
            return queries;
        }
        for (String line : LINE_BREAK.split(output)) {
            String q = unquote(LIST_MARKER.matcher(line).replaceFirst("").strip());
            if (!q.isEmpty()) {
                queries.add(q);
            }
        }
        return queries;
    }

    private static String unquote(String s) {
        if (s.length() >= 2 && (s.startsWith("\"") && s.endsWith("\"") || s.startsWith("'") && s.endsWith("'"))) {
            return s.substring(1, s.length() - 1).strip();
        }
        return s;
    }
}
