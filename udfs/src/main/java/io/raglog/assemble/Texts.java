package io.raglog.assemble;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/** Text normalisation used to compare what one stage sent with what another produced. */
final class Texts {

    private Texts() {}

    /**
     * Lower case, single spaces, trimmed: the same text logged by two vendors compares equal.
     *
     * <p>Exactly {@code toLowerCase(ROOT).replaceAll("\\s+", " ").strip()}, written as one pass because run assembly
     * normalises every prompt and passage it links, and the regex was its largest cost. {@code \s} is the ASCII set
     * below (no UNICODE_CHARACTER_CLASS), while {@code strip()} also trims Unicode spaces: both are kept as they were.
     */
    static String norm(String s) {
        if (s == null) {
            return "";
        }
        // Most texts are lowered in the one copy collapse makes, char by char; the few whose lower case needs
        // toLowerCase's own pass are lowered by it first. That pass, made for every text with a char beyond ASCII,
        // was a tenth of what linking a run allocated on the simulated (SQuAD) traffic (JFR).
        boolean byChar = lowersCharByChar(s);
        return collapse(byChar ? s : s.toLowerCase(Locale.ROOT), byChar);
    }

    /**
     * Whether {@code toLowerCase(ROOT)} lowers the text one char at a time, as {@link Character#toLowerCase(int)}
     * does: not when it holds "İ" (which becomes two chars), "Σ" (which becomes "ς" at a word's end) or a surrogate
     * (lowered as a code point), nor a char whose lower case is not one char. Those are exactly the chars the JDK
     * sends to its slower path.
     */
    private static boolean lowersCharByChar(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c >= 128 && (c == '\u0130' || c == '\u03A3' || Character.isSurrogate(c)
                    || !Character.isBmpCodePoint(Character.toLowerCase((int) c)))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Runs of {@code \s} made one space, letters lower-cased (all of them when {@code lowerEvery}, else the ASCII
     * ones: the text was lowered already), stripped; in one copy, since run assembly normalises every prompt and
     * passage it links.
     */
    private static String collapse(String s, boolean lowerEvery) {
        if (isCollapsed(s, lowerEvery)) {
            return s.strip(); // the copy below would be s itself (a lowered non-ASCII text often is)
        }
        char[] out = buffer(s.length());
        int n = 0;
        boolean inSpace = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (isRegexSpace(c)) {
                inSpace = true;
                continue;
            }
            if (inSpace) {
                out[n++] = ' ';
                inSpace = false;
            }
            out[n++] = lower(c, lowerEvery);
        }
        if (inSpace) {
            out[n++] = ' ';
        }
        return new String(out, 0, n).strip();
    }

    private static char lower(char c, boolean lowerEvery) {
        if (c < 128) {
            return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
        }
        return lowerEvery ? (char) Character.toLowerCase((int) c) : c;
    }

    /** Whether collapse would leave every char as it is: none it lowers, no {@code \s} but single spaces. */
    private static boolean isCollapsed(String s, boolean lowerEvery) {
        boolean afterSpace = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (lower(c, lowerEvery) != c || (isRegexSpace(c) && (c != ' ' || afterSpace))) {
                return false;
            }
            afterSpace = c == ' ';
        }
        return true;
    }

    /**
     * The chars collapse writes into before copying them into its String: the same array each time on a thread, since
     * a new one per text (twice the text's bytes, prompts of several KB) was a fifth of what linking a run allocated
     * (JFR). Safe: collapse fills it and copies it out before returning, never hands it out, calls nothing that could
     * come back into it, and each thread has its own. One longer than {@link #KEPT_BUFFER} is not kept.
     */
    private static final ThreadLocal<char[]> BUFFER = ThreadLocal.withInitial(() -> new char[4096]);
    private static final int KEPT_BUFFER = 1 << 20;

    private static char[] buffer(int length) {
        char[] buffer = BUFFER.get();
        if (buffer.length >= length) {
            return buffer;
        }
        char[] larger = new char[Math.max(length, buffer.length * 2)];
        if (larger.length <= KEPT_BUFFER) {
            BUFFER.set(larger);
        }
        return larger;
    }

    /** Java regex {@code \s}: space, tab, newline, vertical tab, form feed, carriage return. */
    private static boolean isRegexSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    /** A content-derived id for a passage a stage returned without one, from its text as {@link #norm} gives it. */
    static String normalisedContentId(String normalised) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(normalised.getBytes(StandardCharsets.UTF_8));
            return "sha1:" + HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
