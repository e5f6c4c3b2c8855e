package io.raglog.simulator.pipeline;

import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Whole-word edits of short texts (queries, answers). */
public final class TextEdits {

    private static final String KEYBOARD_ROWS = "qwertyuiop asdfghjkl zxcvbnm";

    private TextEdits() {}

    private static Pattern word(String w) {
        return Pattern.compile("(?<![\\p{L}\\p{N}])" + Pattern.quote(w) + "(?![\\p{L}\\p{N}])");
    }

    /** Removes every whole-word occurrence and tidies the spaces left behind. */
    public static String removeWord(String text, String w) {
        String out = word(w).matcher(text).replaceAll("");
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

    private static char neighbourKey(char c, SplittableRandom rng) {
        int at = KEYBOARD_ROWS.indexOf(Character.toLowerCase(c));
        if (at < 0) {
            return c == 'e' ? 'r' : 'e';
        }
        int[] sides = {at - 1, at + 1};
        int pick = sides[rng.nextInt(2)];
        if (pick < 0 || pick >= KEYBOARD_ROWS.length() || KEYBOARD_ROWS.charAt(pick) == ' ') {
            pick = at - 1 >= 0 && KEYBOARD_ROWS.charAt(at - 1) != ' ' ? at - 1 : at + 1;
        }
        char n = KEYBOARD_ROWS.charAt(pick);
        return Character.isUpperCase(c) ? Character.toUpperCase(n) : n;
    }
}
