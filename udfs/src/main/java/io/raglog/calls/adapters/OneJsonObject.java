package io.raglog.calls.adapters;

/**
 * Whether an event's data is one JSON object and nothing after it, told from its brackets and strings alone, without
 * parsing or allocating: it starts with '{', and its braces and brackets outside strings (a string's escapes skipped)
 * first balance at its last character. Such data can be read by a parser that goes on to other data after it
 * ({@link LaidChunks}): the parser's tokens are the same as those of a parser of its own until it either fails inside
 * the data (where they differ first, it is the parser that fails: a close that does not match, a quote or an escape
 * out of place) or closes the object at the data's last character, so it never reads past the data. Data that is not
 * one object, or not JSON in a way a parser would only find past its end (a truncated object), is told apart.
 */
final class OneJsonObject {

    private OneJsonObject() {}

    /** True when {@code chars} from {@code start} to {@code end} is one object by its brackets and strings. */
    static boolean spans(char[] chars, int start, int end) {
        if (end - start < 2 || chars[start] != '{') {
            return false;
        }
        int depth = 0;
        boolean inString = false;
        for (int i = start; i < end; i++) {
            char c = chars[i];
            if (inString) {
                if (c == '\\') {
                    i++; // the escaped character, a quote or a backslash among them, does not end the string
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if ((c == '}' || c == ']') && --depth == 0) {
                return i == end - 1;
            }
        }
        return false;
    }
}
