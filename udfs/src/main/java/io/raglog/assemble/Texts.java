package io.raglog.assemble;

import io.raglog.schemas.TextDigest;
import java.util.List;
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
        char[] chars = buffer(s.length());
        s.getChars(0, s.length(), chars, 0);
        return normalised(chars, s.length(), s);
    }

    /**
     * {@link #norm} of {@code parts} joined by {@code separator}, a run of {@code \s} (a prompt's messages joined by a
     * blank line), without making the joined text: a prompt is several KB, and joining it to normalise it was a
     * twentieth of what the assembly task allocated (JFR of AssemblyTaskBenchmarks).
     */
    static String norm(List<String> parts, String separator) {
        int length = Math.max(0, parts.size() - 1) * separator.length();
        for (String part : parts) {
            length += part.length();
        }
        char[] chars = buffer(length);
        int at = 0;
        for (int i = 0; i < parts.size(); i++) {
            if (i > 0) {
                separator.getChars(0, separator.length(), chars, at);
                at += separator.length();
            }
            String part = parts.get(i);
            part.getChars(0, part.length(), chars, at);
            at += part.length();
        }
        String normalised = normalised(chars, length, null);
        return normalised != null ? normalised : norm(String.join(separator, parts));
    }

    /**
     * {@link #norm} of the first {@code length} chars, collapsed in place; {@code text} is those chars as a String, or
     * null, and then the result is null when a char's lowering needs String.toLowerCase.
     */
    private static String normalised(char[] chars, int length, String text) {
        int n = collapse(chars, length, true);
        if (n == UNCHANGED) {
            // no copy: the text was normalised already, but for Unicode spaces at its ends
            return text != null ? text.strip() : new String(chars, 0, length).strip();
        }
        if (n >= 0) {
            return new String(chars, 0, n).strip();
        }
        return text == null ? null : loweredFirst(text);
    }

    /** A text with a char that String.toLowerCase lowers by the text around it: lowered whole, then collapsed. */
    private static String loweredFirst(String text) {
        String lowered = text.toLowerCase(Locale.ROOT);
        char[] chars = buffer(lowered.length());
        lowered.getChars(0, lowered.length(), chars, 0);
        int n = collapse(chars, lowered.length(), false);
        return n == UNCHANGED ? lowered.strip() : new String(chars, 0, n).strip();
    }

    /** What {@link #collapse} returns when it changed no char: the chars are the text as it was. */
    private static final int UNCHANGED = Integer.MAX_VALUE;

    /**
     * Makes runs of {@code \s} one space and lowers letters, in place, dropping a space before the first char and
     * after the last (strip() would). {@code lowerAll}: every letter, as String.toLowerCase(ROOT) lowers it; else
     * ASCII letters only (the text was lowered before).
     *
     * @return the chars kept, {@link #UNCHANGED} when that is all of them, each as it was; -1 when {@code lowerAll}
     *     met a char that only String.toLowerCase lowers right ({@link #lowerAlone})
     */
    private static int collapse(char[] chars, int length, boolean lowerAll) {
        int n = 0;
        boolean inSpace = false;
        boolean changed = false;
        for (int i = 0; i < length; i++) {
            char c = chars[i];
            if (c <= ' ' && isRegexSpace(c)) {
                inSpace = true;
                continue;
            }
            if (inSpace) {
                if (n > 0) {
                    // unchanged only for one ' ' where nothing before it was dropped
                    changed |= n != i - 1 || chars[n] != ' ';
                    chars[n++] = ' ';
                } else {
                    changed = true;
                }
                inSpace = false;
            }
            // the common case first, in as few tests as it takes: an ASCII char, a capital only when A..Z
            if (c < 128) {
                if ((char) (c - 'A') < 26) {
                    c += 'a' - 'A';
                    changed = true;
                }
            } else if (lowerAll) {
                int lowered = lowerAlone(c);
                if (lowered < 0) {
                    return -1;
                }
                changed |= lowered != c;
                c = (char) lowered;
            }
            chars[n++] = c;
        }
        return changed || inSpace ? n : UNCHANGED;
    }

    /**
     * A non-ASCII char as String.toLowerCase(ROOT) lowers it, or -1 for the chars it lowers otherwise than
     * Character.toLowerCase does: by the text around them ("İ" becomes two chars, "Σ" at a word's end "ς"), or
     * into more than one char (surrogates, a lowered char outside the Basic Multilingual Plane).
     */
    private static int lowerAlone(char c) {
        if (c == '\u03A3' || c == '\u0130' || Character.isSurrogate(c)) {
            return -1;
        }
        int lowered = Character.toLowerCase((int) c);
        return Character.isBmpCodePoint(lowered) ? lowered : -1;
    }

    /**
     * The chars norm copies a text into and collapses in place before copying them into its String: the same array
     * each time on a thread, since a new one per text (twice the text's bytes, prompts of several KB) was a fifth of
     * what linking a run allocated (JFR). Safe: norm fills it and copies it out before returning, never hands it out,
     * calls nothing that could come back into it while it holds it, and each thread has its own. One longer than
     * {@link #KEPT_BUFFER} is not kept.
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

    /** Java regex {@code \s}: space, and tab, newline, vertical tab, form feed, carriage return (9 to 13). */
    private static boolean isRegexSpace(char c) {
        return c == ' ' || (c >= '\t' && c <= '\r');
    }

    /**
     * A content-derived id for a passage a stage returned without one, from its text as {@link #norm} gives it:
     * {@code "sha1:"} and the first 8 bytes of the SHA-1 of its UTF-8 bytes in hex. Hashed by a per-thread
     * {@link TextDigest}, which neither copies the text to UTF-8 nor concatenates the hex: those were most of this
     * method's 3.3 % of the assembly task's allocation (JFR, issue #27).
     */
    static String normalisedContentId(String normalised) {
        return SHA1.get().add(normalised).hex("sha1:", 8);
    }

    private static final ThreadLocal<TextDigest> SHA1 = TextDigest.perThread("SHA-1");
}
