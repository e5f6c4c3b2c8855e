package io.raglog.calls;

import java.util.ArrayList;
import java.util.List;

/** Splits a text into paragraphs at its blank lines, as prompts' templates join their passages. */
final class Paragraphs {

    private Paragraphs() {}

    /**
     * What {@code Pattern.compile("\\n[ \\t]*\\n").split(text)} returns (trailing empty paragraphs dropped), found
     * with indexOf: the regex was tried at every character of the prompt.
     */
    static List<String> split(String text) {
        List<String> out = new ArrayList<>();
        int index = 0;
        int n = text.length();
        for (int nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', nl + 1)) {
            int next = nl + 1;
            while (next < n && (text.charAt(next) == ' ' || text.charAt(next) == '\t')) {
                next++;
            }
            if (next < n && text.charAt(next) == '\n') {
                out.add(text.substring(index, nl));
                index = next + 1;
                nl = next;
            }
        }
        if (index == 0) {
            return List.of(text);
        }
        out.add(text.substring(index));
        int size = out.size();
        while (size > 0 && out.get(size - 1).isEmpty()) {
            size--;
        }
        return out.subList(0, size);
    }
}
