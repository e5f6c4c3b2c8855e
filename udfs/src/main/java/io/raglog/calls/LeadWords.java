package io.raglog.calls;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A pattern whose every match starts at a word boundary with one of a few words, tried only where one of those words
 * starts: {@link Matcher#find()} tries each of the pattern's many alternatives at every character of the prompt, to
 * find nothing in most prompts.
 *
 * <p>The words are the ASCII letters a match starts with, up to the blank that follows them (the patterns match case
 * insensitively in ASCII, as {@code (?i)} does without {@code (?u)}); they must list every word a match can start
 * with, or a match would be missed.
 */
final class LeadWords {

    private final Pattern pattern;
    private final String[] words;
    /** The lengths and first letters of the words: most words of a prompt are told apart by these alone. */
    private final int shortest;
    private final int longest;
    private final int firstLetters;

    LeadWords(Pattern pattern, String... words) {
        this.pattern = pattern;
        this.words = words;
        int min = Integer.MAX_VALUE;
        int max = 0;
        int letters = 0;
        for (String w : words) {
            min = Math.min(min, w.length());
            max = Math.max(max, w.length());
            letters |= letterBit(w.charAt(0));
        }
        this.shortest = min;
        this.longest = max;
        this.firstLetters = letters;
    }

    /** The matches {@code pattern.matcher(text).find()} would find one by one. */
    Matches matches(String text) {
        return new Matches(text);
    }

    boolean foundIn(String text) {
        return matches(text).find();
    }

    private boolean leads(String text, int start, int end) {
        int length = end - start;
        if (length < shortest || length > longest || (firstLetters & letterBit(text.charAt(start))) == 0) {
            return false;
        }
        for (String w : words) {
            if (w.length() == length && text.regionMatches(true, start, w, 0, length)) {
                return true;
            }
        }
        return false;
    }

    /** A bit for each ASCII letter, either case. */
    private static int letterBit(char asciiLetter) {
        return 1 << ((asciiLetter | 0x20) - 'a');
    }

    private static boolean isAsciiLetter(char c) {
        return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
    }

    private static boolean isWordChar(char c) {
        return isAsciiLetter(c) || (c >= '0' && c <= '9') || c == '_';
    }

    /** Like a {@link Matcher} looping on {@code find()}: call {@link #find()}, then read the match. */
    final class Matches {

        private final String text;
        private final Matcher m;
        private int next;

        private Matches(String text) {
            this.text = text;
            // Tried from inside the text, the pattern still sees the character before it, for its \b.
            this.m = pattern.matcher(text).useTransparentBounds(true).useAnchoringBounds(false);
        }

        boolean find() {
            int n = text.length();
            for (int i = next; i < n; i++) {
                if (!isAsciiLetter(text.charAt(i))) {
                    continue;
                }
                int end = i + 1;
                while (end < n && isAsciiLetter(text.charAt(end))) {
                    end++;
                }
                // \b fails inside a word: only its first letter can start a match, and only after no letter or digit
                boolean boundary = i == 0 || !isWordChar(text.charAt(i - 1));
                if (boundary && leads(text, i, end)) {
                    m.region(i, n);
                    if (m.lookingAt()) {
                        next = m.end() > i ? m.end() : i + 1;
                        return true;
                    }
                }
                i = end - 1;
            }
            next = n;
            return false;
        }

        int start() {
            return m.start();
        }

        int end() {
            return m.end();
        }
    }
}
