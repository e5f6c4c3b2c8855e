package io.raglog.simulator.pipeline;

import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Whole-word edits of short texts (queries, answers). */
public final class TextEdits {

    private TextEdits() {}

    private static Pattern word(String w) {
        return Pattern.compile("(?<![\\p{L}\\p{N}])" + Pattern.quote(w) + "(?![\\p{L}\\p{N}])");
    }

    /**
     * Removes every whole-word occurrence, in any case (a term is lost only when no casing of it is left, as the
     * key-term check reads it), and tidies the spaces left behind.
     */
    public static String removeWord(String text, String w) {
        String out = Pattern.compile(word(w).pattern(), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE).matcher(text)
                .replaceAll("");
        return out.replaceAll("\\s{2,}", " ").replaceAll("\\s+([,.?!;:])", "$1").strip();
    }

    /** Replaces the first whole-word occurrence. */
    public static String replaceWord(String text, String from, String to) {
        Matcher m = word(from).matcher(text);
        return m.find() ? text.substring(0, m.start()) + to + text.substring(m.end()) : text;
    }

    public static boolean containsWord(String text, String w) {
        return word(w).matcher(text).find();
    }

    /**
     * One keyboard slip: two neighbouring letters swapped, a letter dropped, doubled, or hit on its neighbour key.
     * Always returns a different word (the slip falls on an inner letter so the word stays recognisable).
     */
    public static String typo(String w, SplittableRandom rng) {
        if (w.length() < 3) {
            return w + w.charAt(w.length() - 1);
        }
        for (int attempt = 0; attempt < 8; attempt++) {
            int i = 1 + rng.nextInt(w.length() - 2);
            String out;
            switch (rng.nextInt(4)) {
                case 0:
                    out = w.substring(0, i) + w.charAt(i + 1) + w.charAt(i) + w.substring(i + 2);
                    break;
                case 1:
                    out = w.substring(0, i) + w.substring(i + 1);
                    break;
                case 2:
                    out = w.substring(0, i + 1) + w.charAt(i) + w.substring(i + 1);
                    break;
                default:
                    out = w.substring(0, i) + neighbourKey(w.charAt(i), rng) + w.substring(i + 1);
                    break;
            }
            if (!out.equals(w)) {
                return out;
            }
        }
        return w.substring(0, w.length() - 1);
    }

    /** QWERTY rows with their stagger: a key's neighbours are beside it and the touching keys above and below. */
    private static final String[] ROWS = {"1234567890", "qwertyuiop", "asdfghjkl", "zxcvbnm"};
    /** Where each row starts, in half keys (the rows are staggered). */
    private static final int[] STAGGER = {-1, 0, 1, 2};

    /** The keys a finger aiming at {@code c} can hit instead; empty for a character off the letter rows. */
    public static String neighbours(char c) {
        char lower = Character.toLowerCase(c);
        StringBuilder out = new StringBuilder();
        for (int r = 0; r < ROWS.length; r++) {
            int col = ROWS[r].indexOf(lower);
            if (col < 0) {
                continue;
            }
            double x = col + STAGGER[r] / 2.0;
            for (int rr = Math.max(0, r - 1); rr <= Math.min(ROWS.length - 1, r + 1); rr++) {
                for (int cc = 0; cc < ROWS[rr].length(); cc++) {
                    double xx = cc + STAGGER[rr] / 2.0;
                    boolean touching = rr == r ? Math.abs(xx - x) == 1 : Math.abs(xx - x) <= 0.5;
                    if (touching) {
                        out.append(ROWS[rr].charAt(cc));
                    }
                }
            }
        }
        return out.toString();
    }

    private static char neighbourKey(char c, SplittableRandom rng) {
        String keys = neighbours(c);
        if (keys.isEmpty()) {
            return c == 'e' ? 'r' : 'e';
        }
        char n = keys.charAt(rng.nextInt(keys.length()));
        return Character.isUpperCase(c) ? Character.toUpperCase(n) : n;
    }
}
