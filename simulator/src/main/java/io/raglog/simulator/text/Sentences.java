package io.raglog.simulator.text;

import java.util.ArrayList;
import java.util.List;

/**
 * Sentence boundaries as a chunker or a reader finds them: a full stop, question or exclamation mark followed by
 * white space and a capital, digit or quote. Abbreviations fool it now and then, as they fool real splitters.
 */
public final class Sentences {

    /** A sentence as the offsets of its first and one-past-last character in the source text. */
    public record Span(int start, int end) {
        public String of(String text) {
            return text.substring(start, end);
        }
    }

    private Sentences() {}

    public static List<Span> spans(String text) {
        List<Span> out = new ArrayList<>();
        int n = text.length();
        int start = skipSpace(text, 0);
        for (int i = start; i < n; i++) {
            char c = text.charAt(i);
            if ((c == '.' || c == '?' || c == '!') && i + 2 < n && Character.isWhitespace(text.charAt(i + 1))) {
                int next = skipSpace(text, i + 1);
                if (next < n && startsSentence(text.charAt(next)) && !shortAbbreviation(text, i)) {
                    out.add(new Span(start, i + 1));
                    start = next;
                    i = next - 1;
                }
            }
        }
        int end = n;
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        if (end > start) {
            out.add(new Span(start, end));
        }
        return out;
    }

    public static List<String> of(String text) {
        List<String> out = new ArrayList<>();
        for (Span s : spans(text)) {
            out.add(s.of(text));
        }
        return out;
    }

    private static boolean startsSentence(char c) {
        return Character.isUpperCase(c) || Character.isDigit(c) || c == '"' || c == '\'' || c == '(';
    }

    /** "St. Louis", "Mr. Smith", "U.S. Army": one- or two-letter words before the dot rarely end a sentence. */
    private static boolean shortAbbreviation(String text, int dot) {
        int i = dot - 1;
        while (i >= 0 && Character.isLetter(text.charAt(i))) {
            i--;
        }
        int length = dot - 1 - i;
        return length >= 1 && length <= 2 && Character.isUpperCase(text.charAt(i + 1));
    }

    private static int skipSpace(String text, int i) {
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i;
    }
}
