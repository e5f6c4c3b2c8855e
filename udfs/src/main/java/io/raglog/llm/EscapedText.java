package io.raglog.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import io.raglog.schemas.Json;
import io.raglog.schemas.ReusedBytes;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;

/**
 * A text held as the UTF-8 bytes of its JSON string, quotes included, escaped by the generator request bodies are
 * written with, so a body sends them as they are ({@link BodyParts}) rather than escaping the text again. The fenced
 * run data is most of every request: held as a string it cost a copy of up to twice its length, and a failed attempt
 * at compressing it whenever a passage had a letter beyond Latin-1 (half of what llmRequests allocated, JFR). As
 * escaped bytes: 44.5 instead of 62.5 KB a run (llmRequests, JMH).
 *
 * <p>A run's messages may share pieces: a fenced message is held as the parts its JSON string is made of, the run's
 * long texts among them escaped once for all its messages ({@link Prompts.RunPrompts}); a body sends the parts one
 * after the other.
 */
public final class EscapedText {

    /** The JSON string's bytes, quotes included, in parts sent one after the other; most texts are one part. */
    private final byte[][] parts;
    /** The hash, once asked: a system message keys its body's frame ({@link BodyFrames}) on every request. */
    private int hash;

    private EscapedText(byte[]... parts) {
        this.parts = parts;
    }

    /** @return null for null */
    public static EscapedText of(String text) {
        return text == null ? null : new EscapedText(ESCAPER.get().quoted(text, null, 0, text.length()));
    }

    static EscapedText of(char[] chars, int offset, int length) {
        return new EscapedText(ESCAPER.get().quoted(null, chars, offset, length));
    }

    /** The JSON string made of these parts, one after the other, the first opening the quotes and the last closing them. */
    static EscapedText ofParts(byte[][] parts) {
        return new EscapedText(parts);
    }

    /**
     * The escaped bytes of {@code chars[from, to)} as they are inside the thread's JSON string of a text they are part
     * of, with the string's opening and closing quote if asked: the generator escapes each character on its own, so
     * the pieces of a text, cut between characters that are not halves of one pair, make its string.
     */
    static byte[] piece(char[] chars, int from, int to, boolean opening, boolean closing) {
        return ESCAPER.get().piece(chars, from, to, opening, closing);
    }

    private static final ThreadLocal<Escaper> ESCAPER = ThreadLocal.withInitial(Escaper::new);

    /**
     * The thread's generator ({@link KeptGenerator}) and the buffer it writes a text's JSON string into. What it
     * escapes is held in fields while it is written, by one document made once, not a lambda that captures it per
     * text: those lambdas were 6.7 % of what building a run's LLM requests allocated (llmRequests, JFR). With the
     * fence's seed digested from bytes the thread keeps ({@link Prompts}): 10.9 instead of 12.5 KB a run (llmRequests,
     * JMH {@code -f 1 -wi 3 -w 2 -i 5 -r 2 -prof gc}, old and new alternated).
     */
    private static final class Escaper {

        private final ReusedBytes bytes = new ReusedBytes();
        private final KeptGenerator json = new KeptGenerator(() -> Json.MAPPER.createGenerator(bytes));
        private final Json.Streamed held = this::writeHeld;
        /** The text being escaped: {@code text}, or else {@code chars[offset, offset + length)}; null between texts. */
        private String text;
        private char[] chars;
        private int offset;
        private int length;

        private void writeHeld(JsonGenerator g) throws IOException {
            if (text != null) {
                g.writeString(text);
            } else {
                g.writeString(chars, offset, length);
            }
        }

        /** Writes the text's JSON string into {@code bytes}, and lets go of the text. */
        private void escape(String text, char[] chars, int offset, int length) {
            this.text = text;
            this.chars = chars;
            this.offset = offset;
            this.length = length;
            try {
                json.write(held);
            } finally {
                this.text = null;
                this.chars = null;
            }
        }

        /** The text's JSON string, from {@code text} or else from {@code chars}. */
        byte[] quoted(String text, char[] chars, int offset, int length) {
            try {
                escape(text, chars, offset, length);
                return bytes.toByteArray();
            } finally {
                bytes.release();
            }
        }

        byte[] piece(char[] chars, int from, int to, boolean opening, boolean closing) {
            try {
                escape(null, chars, from, to - from);
                return Arrays.copyOfRange(bytes.bytes(), opening ? 0 : 1, closing ? bytes.size() : bytes.size() - 1);
            } finally {
                bytes.release();
            }
        }
    }

    /** Adds the JSON string's parts, in order, to a body's: sent as they are, never to be written to. */
    void addTo(List<byte[]> body) {
        for (byte[] part : parts) {
            body.add(part);
        }
    }

    /** How many parts the JSON string is sent in. */
    int partCount() {
        return parts.length;
    }

    /** The JSON string's bytes, quotes included, in one array (the only part of most texts, else joined). */
    byte[] quoted() {
        if (parts.length == 1) {
            return parts[0];
        }
        ByteArrayOutputStream joined = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            joined.writeBytes(part);
        }
        return joined.toByteArray();
    }

    /** The text itself, read back from its JSON (for tests and messages: a request's body never needs it). */
    public String text() {
        return Json.read(quoted(), String.class);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof EscapedText other)) {
            return false;
        }
        return parts.length == 1 && other.parts.length == 1
                ? Arrays.equals(parts[0], other.parts[0]) : Arrays.equals(quoted(), other.quoted());
    }

    /** The hash of the joined bytes ({@link Arrays#hashCode(byte[])}), however they are cut into parts. */
    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = 1;
            for (byte[] part : parts) {
                for (byte b : part) {
                    h = 31 * h + b;
                }
            }
            hash = h;
        }
        return h;
    }

    @Override
    public String toString() {
        return text();
    }
}
