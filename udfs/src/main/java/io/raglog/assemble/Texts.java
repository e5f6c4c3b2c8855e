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
        // other letters need toLowerCase's context ("İ" becomes two chars, a final "Σ" becomes "ς"); ASCII ones
        // are lowered in the one copy collapse makes, and ASCII text needs no other pass
        return collapse(isAscii(s) ? s : s.toLowerCase(Locale.ROOT));
    }

    private static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 128) {
                return false;
            }
        }
        return true;
    }

    /**
     * Runs of {@code \s} made one space, ASCII letters lower-cased, stripped; in one copy, since run assembly
     * normalises every prompt and passage it links.
     */
    private static String collapse(String s) {
        if (isCollapsed(s)) {
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
            out[n++] = c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
        }
        if (inSpace) {
            out[n++] = ' ';
        }
        return new String(out, 0, n).strip();
    }

    /** Whether collapse would leave every char as it is: no ASCII capital, no {@code \s} but single spaces. */
    private static boolean isCollapsed(String s) {
        boolean afterSpace = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ((c >= 'A' && c <= 'Z') || (isRegexSpace(c) && (c != ' ' || afterSpace))) {
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
