package io.raglog.calls;

import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the lines of one text start, found in one pass and shared by the patterns that can only match there: labels,
 * separator lines and passage markers all begin with a multiline {@code ^}, yet {@link Matcher#find()} tries them at
 * every character, and a prompt's passages are long lines: tried at line starts only (and the XML patterns only where
 * a closing tag is), twice as many prompts were read a second (parsePrompt, 13.6k to 27.3k ops/s).
 *
 * <p>A line starts where a multiline {@code ^} matches: at 0 and after {@code \n}, {@code \r} (not between {@code \r}
 * and {@code \n}), U+0085, U+2028 and U+2029, never at the very end of the text.
 */
final class LineStarts {

    private final String text;
    private final int[] starts;
    private final int count;

    LineStarts(String text) {
        this.text = text;
        int n = text.length();
        int[] found = new int[16];
        int c = 0;
        if (n > 0) {
            found[c++] = 0;
        }
        if (onlyNewlines(text)) {
            // the common case, found with indexOf, which runs vectorized, not a look at each character
            for (int nl = text.indexOf('\n'); nl >= 0 && nl + 1 < n; nl = text.indexOf('\n', nl + 1)) {
                found = add(found, c++, nl + 1);
            }
        } else {
            for (int i = 1; i < n; i++) {
                if (isLineStart(text, i)) {
                    found = add(found, c++, i);
                }
            }
        }
        this.starts = found;
        this.count = c;
    }

    private static int[] add(int[] found, int at, int start) {
        int[] out = at < found.length ? found : Arrays.copyOf(found, at * 2);
        out[at] = start;
        return out;
    }

    private static boolean onlyNewlines(String text) {
        return text.indexOf('\r') < 0 && text.indexOf('\u0085') < 0 && text.indexOf('\u2028') < 0
                && text.indexOf('\u2029') < 0;
    }

    private static boolean isLineStart(String text, int i) {
        char before = text.charAt(i - 1);
        return before == '\n' || before == '\u0085' || (before | 1) == '\u2029'
                || before == '\r' && text.charAt(i) != '\n';
    }

    String text() {
        return text;
    }

    /**
     * The matches {@code pattern.matcher(text).region(from, text.length())} would find one by one, tried at {@code
     * from} and at the line starts after it only. Exact for a pattern whose every match starts with a multiline
     * {@code ^} and that looks at no character before where it is tried (no look-behind).
     */
    Matches matches(Pattern pattern, int from) {
        Matcher idle = IDLE_MATCHERS.get().remove(pattern);
        return new Matches(idle == null ? pattern.matcher(text) : idle.reset(text), from);
    }

    /**
     * Each thread's matchers not in use, one a pattern at most, each left on an empty text: a matcher and its group
     * arrays were made for every search of every prompt, about 3 % of what a call's decoding and classifying allocated
     * (JFR of {@code HandOverBenchmarks.decodeClassifyAndWriteCall}). Reused, JMH {@code decodeAndClassifyCall}
     * ({@code -prof gc}) allocates 15,735 B/op, not 16,529. {@link Matcher#reset(CharSequence)} leaves a matcher as
     * the pattern makes it. Searches in use at once (nested ones for the same pattern) each have their own;
     * {@code LineStartsTest} holds them to fresh matchers.
     */
    private static final ThreadLocal<Map<Pattern, Matcher>> IDLE_MATCHERS =
            ThreadLocal.withInitial(IdentityHashMap::new);

    /**
     * Like a {@link Matcher} looping on {@code find()}: call {@link #find()}, then read the match (not once it has
     * answered false).
     */
    final class Matches {

        /** Null once no match is left: the matcher is then the thread's again. */
        private Matcher m;
        private final int regionStart;
        /** Where the next match may start, as Matcher.find goes on after the last one. */
        private int next;
        /** The first line start not yet tried. */
        private int line;

        private Matches(Matcher m, int from) {
            this.m = m;
            this.regionStart = from;
            this.next = from;
        }

        boolean find() {
            int length = text.length();
            while (next <= length) {
                int at;
                if (next == regionStart) {
                    at = regionStart; // the region's start: ^ matches there like at a line start
                } else {
                    while (line < count && starts[line] < next) {
                        line++;
                    }
                    if (line == count) {
                        break;
                    }
                    at = starts[line];
                }
                m.region(at, length);
                if (m.lookingAt()) {
                    next = m.end() == at ? at + 1 : m.end();
                    return true;
                }
                next = at + 1;
            }
            next = length + 1;
            if (m != null) {
                IDLE_MATCHERS.get().put(m.pattern(), m.reset(""));
                m = null;
            }
            return false;
        }

        int start() {
            return m.start();
        }

        int end() {
            return m.end();
        }

        String group() {
            return m.group();
        }
    }
}
