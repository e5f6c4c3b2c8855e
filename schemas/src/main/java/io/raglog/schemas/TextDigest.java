package io.raglog.schemas;

import java.nio.charset.StandardCharsets;
import java.security.DigestException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A digest of texts' UTF-8 bytes, given as a prefix and the digest's leading bytes in lower-case hex: run ids and
 * passage content ids. Exactly {@code prefix + HexFormat.of().formatHex(md.digest(text.getBytes(UTF_8)), 0, n)}, with
 * the texts added one after another as if concatenated, but without the joined text, its UTF-8 copy, a new
 * MessageDigest, the digest array or the hex string concatenated to its prefix: those were most of what making a run
 * id (3.5 % of the assembly task's allocation, JFR, issue #27) and a content id (3.3 %) allocated. The result String
 * is the one allocation left.
 *
 * <p>Not thread-safe and not reentrant: hold one per thread ({@link #perThread}); {@link #hex} resets it.
 */
public final class TextDigest {

    private static final byte[] HEX_DIGITS = "0123456789abcdef".getBytes(StandardCharsets.ISO_8859_1);
    /** A UTF-8 buffer longer than this (a text of more than about 20 000 chars) is not kept. */
    private static final int KEPT_BUFFER = 1 << 16;

    private final MessageDigest digest;
    private final byte[] out;
    private byte[] utf8 = new byte[512];
    /** A high surrogate that ended the last text added, held until the next text says whether it is paired. */
    private char pendingHigh;

    public TextDigest(String algorithm) {
        try {
            this.digest = MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is required by the Java platform", e);
        }
        this.out = new byte[digest.getDigestLength()];
    }

    /** One per thread, made on first use. */
    public static ThreadLocal<TextDigest> perThread(String algorithm) {
        return ThreadLocal.withInitial(() -> new TextDigest(algorithm));
    }

    /**
     * Adds {@code text}'s UTF-8 bytes as {@code String.getBytes(UTF_8)} gives them: an unpaired surrogate is one
     * {@code '?'}. A surrogate pair split across two texts added in turn is read as the pair, as in their
     * concatenation.
     */
    public TextDigest add(String text) {
        int length = text.length();
        // at most 3 bytes a char (a pair's 4 bytes are 2 a char), plus a high surrogate held from before
        byte[] buffer = buffer(3 * length + 3);
        int at = 0;
        int i = 0;
        if (pendingHigh != 0) {
            char high = pendingHigh;
            pendingHigh = 0;
            if (length > 0 && Character.isLowSurrogate(text.charAt(0))) {
                at = putCodePoint(buffer, at, Character.toCodePoint(high, text.charAt(0)));
                i = 1;
            } else if (length == 0) {
                pendingHigh = high; // nothing to pair it with yet
            } else {
                buffer[at++] = '?';
            }
        }
        for (; i < length; i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                buffer[at++] = (byte) c;
            } else if (c < 0x800) {
                buffer[at++] = (byte) (0xC0 | (c >> 6));
                buffer[at++] = (byte) (0x80 | (c & 0x3F));
            } else if (!Character.isSurrogate(c)) {
                buffer[at++] = (byte) (0xE0 | (c >> 12));
                buffer[at++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                buffer[at++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < length && Character.isLowSurrogate(text.charAt(i + 1))) {
                at = putCodePoint(buffer, at, Character.toCodePoint(c, text.charAt(++i)));
            } else if (Character.isHighSurrogate(c) && i + 1 == length) {
                pendingHigh = c;
            } else {
                buffer[at++] = '?';
            }
        }
        digest.update(buffer, 0, at);
        return this;
    }

    /**
     * {@code prefix} and the first {@code bytes} bytes of the digest of the texts added, in lower-case hex; resets the
     * digest for the next texts.
     */
    public String hex(String prefix, int bytes) {
        if (pendingHigh != 0) {
            pendingHigh = 0;
            digest.update((byte) '?');
        }
        try {
            digest.digest(out, 0, out.length);
        } catch (DigestException e) {
            throw new IllegalStateException(e);
        }
        int length = prefix.length() + 2 * bytes;
        byte[] chars = buffer(length);
        int at = 0;
        for (int i = 0; i < prefix.length(); i++) {
            char c = prefix.charAt(i);
            if (c >= 0x80) {
                throw new IllegalArgumentException("an id prefix is ASCII: " + prefix);
            }
            chars[at++] = (byte) c;
        }
        for (int i = 0; i < bytes; i++) {
            chars[at++] = HEX_DIGITS[(out[i] >> 4) & 0xF];
            chars[at++] = HEX_DIGITS[out[i] & 0xF];
        }
        return new String(chars, 0, length, StandardCharsets.ISO_8859_1);
    }

    private byte[] buffer(int length) {
        if (utf8.length >= length) {
            return utf8;
        }
        byte[] larger = new byte[Math.max(length, utf8.length * 2)];
        if (larger.length <= KEPT_BUFFER) {
            utf8 = larger;
        }
        return larger;
    }

    private static int putCodePoint(byte[] buffer, int at, int codePoint) {
        buffer[at++] = (byte) (0xF0 | (codePoint >> 18));
        buffer[at++] = (byte) (0x80 | ((codePoint >> 12) & 0x3F));
        buffer[at++] = (byte) (0x80 | ((codePoint >> 6) & 0x3F));
        buffer[at++] = (byte) (0x80 | (codePoint & 0x3F));
        return at;
    }
}
