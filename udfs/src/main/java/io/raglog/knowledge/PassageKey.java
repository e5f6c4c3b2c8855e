package io.raglog.knowledge;

import io.raglog.memo.PerThreadMemo;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * What makes two passages the same passage for the known passages: their text, whoever saw it. A run names a passage
 * by the store's id; an index-building call names none (the ids go to the store in another call, or are made there),
 * so both are keyed by their text: whitespace collapsed, case folded, and the document instruction some embedding
 * families want before a passage ("passage: ", "search_document: ") taken off, since the store returns the chunk
 * without it. 64 bits of SHA-256: a collision among a pipeline's 100,000 passages is a one-in-a-billion event.
 */
final class PassageKey {

    /** Document-side instructions of the E5, Nomic, BGE/GTE-style and EmbeddingGemma families. */
    private static final List<String> DOCUMENT_INSTRUCTIONS = List.of("passage:", "search_document:", "document:",
            "represent this document for retrieval:", "title: none | text:");

    /**
     * Each thread's digest and UTF-8 buffer. Every passage of every run and of every index-building call is keyed
     * here, and {@code replaceAll("\\s+", " ")} (a Pattern, a Matcher and a StringBuilder each time), a new
     * {@code MessageDigest} and {@code getBytes(UTF_8)} (three bytes a char for any text beyond Latin-1, then copied
     * to size) made it the largest allocation site of the known passages (~100 KB a run, JFR, issue #27). The key is
     * the same: the same normal text, the same bytes digested.
     */
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

    /**
     * Recent texts' keys, per thread: a run's handed passages are keyed on every run, and popular passages recur
     * (keying them was a third of a lookup's Java work at 20,000 known passages, JFR). 4,096 texts, whose strings it
     * keeps alive: a few MB a thread for passages of ~500 chars.
     */
    private static final PerThreadMemo<String> RECENT = new PerThreadMemo<>(4096);

    private PassageKey() {}

    static String of(String text) {
        return RECENT.get(text, PassageKey::keyOf);
    }

    private static String keyOf(String text) {
        String normal = collapseWhitespace(text.strip()).toLowerCase(Locale.ROOT);
        for (String instruction : DOCUMENT_INSTRUCTIONS) {
            if (normal.startsWith(instruction)) {
                normal = normal.substring(instruction.length()).strip();
                break;
            }
        }
        return SCRATCH.get().key(normal);
    }

    /**
     * {@code text.replaceAll("\\s+", " ")} without the regex: every run of {@code \s} (which is
     * {@code [ \t\n\x0B\f\r]}, not Unicode white space) becomes one space. The text itself when there is none to
     * collapse, as most passages are.
     */
    static String collapseWhitespace(String text) {
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (isRegexSpace(c) && (c != ' ' || (i + 1 < n && isRegexSpace(text.charAt(i + 1))))) {
                break; // the first run that is not already a single space
            }
            i++;
        }
        if (i == n) {
            return text;
        }
        StringBuilder out = new StringBuilder(n).append(text, 0, i);
        while (i < n) {
            char c = text.charAt(i++);
            if (isRegexSpace(c)) {
                out.append(' ');
                while (i < n && isRegexSpace(text.charAt(i))) {
                    i++;
                }
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }

    private static boolean isRegexSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    private static final class Scratch {

        /** Longer texts (rare: a passage is a chunk) are encoded as before rather than grow the buffer for good. */
        private static final int MAX_BUFFERED_CHARS = 64 * 1024;

        private final MessageDigest sha256;
        /** Replaces a surrogate not in a pair with '?', as {@code getBytes(UTF_8)} does: the same bytes. */
        private final CharsetEncoder utf8 = StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        private ByteBuffer bytes = ByteBuffer.allocate(1024);

        Scratch() {
            try {
                sha256 = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java runtime has SHA-256", e);
            }
        }

        /** The first 64 bits of the SHA-256 of the text's UTF-8, in hex. */
        String key(String text) {
            if (text.length() > MAX_BUFFERED_CHARS) {
                sha256.update(text.getBytes(StandardCharsets.UTF_8)); // not worth a buffer held for good
            } else {
                int most = (int) Math.ceil(utf8.maxBytesPerChar() * text.length());
                if (bytes.capacity() < most) {
                    bytes = ByteBuffer.allocate(Math.max(most, 2 * bytes.capacity()));
                }
                bytes.clear();
                // cannot overflow (room for the most bytes a char makes) and cannot fail (malformed input replaced)
                utf8.reset().encode(CharBuffer.wrap(text), bytes, true);
                utf8.flush(bytes);
                sha256.update(bytes.flip());
            }
            byte[] digest = sha256.digest(); // and resets it for the next key
            return HexFormat.of().formatHex(digest, 0, 8);
        }
    }
}
