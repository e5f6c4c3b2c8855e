package io.raglog.llm;

import com.fasterxml.jackson.core.JsonGenerator;
import io.raglog.schemas.Json;
import io.raglog.schemas.ReusedBytes;
import java.io.IOException;
import java.util.Arrays;

/**
 * A text held as the UTF-8 bytes of its JSON string, quotes included, escaped by the generator request bodies are
 * written with, so a body sends them as they are ({@link BodyParts}) rather than escaping the text again. The fenced
 * run data is most of every request: held as a string it cost a copy of up to twice its length, and a failed attempt
 * at compressing it whenever a passage had a letter beyond Latin-1 (half of what llmRequests allocated, JFR). As
 * escaped bytes: 44.5 instead of 62.5 KB a run (llmRequests, JMH).
 */
public final class EscapedText {

    private final byte[] quoted;
    /** The hash, once asked: a system message keys its body's frame ({@link BodyFrames}) on every request. */
    private int hash;

    private EscapedText(byte[] quoted) {
        this.quoted = quoted;
    }

    /** @return null for null */
    public static EscapedText of(String text) {
        return text == null ? null : new EscapedText(ESCAPER.get().quoted(text, null, 0, text.length()));
    }

    static EscapedText of(char[] chars, int offset, int length) {
        return new EscapedText(ESCAPER.get().quoted(null, chars, offset, length));
    }

    private static final ThreadLocal<Escaper> ESCAPER = ThreadLocal.withInitial(Escaper::new);

    /** The thread's generator ({@link KeptGenerator}) and the buffer it writes a text's JSON string into. */
    private static final class Escaper {

        private final ReusedBytes bytes = new ReusedBytes();
        private final KeptGenerator json = new KeptGenerator(() -> Json.MAPPER.createGenerator(bytes));

        /** The text's JSON string, from {@code text} or else from {@code chars}. */
        byte[] quoted(String text, char[] chars, int offset, int length) {
            try {
                json.write(g -> {
                    if (text != null) {
                        g.writeString(text);
                    } else {
                        g.writeString(chars, offset, length);
                    }
                });
                return bytes.toByteArray();
            } finally {
                bytes.release();
            }
        }
    }

    /** Writes the text as a value: the same bytes as {@code json.writeString(text.text())}, null as null. */
    static void write(JsonGenerator json, EscapedText text) throws IOException {
        if (text == null) {
            json.writeNull();
        } else {
            json.writeRawUTF8String(text.quoted, 1, text.quoted.length - 2);
        }
    }

    /** The JSON string's bytes, quotes included: sent as they are, never to be written to. */
    byte[] quoted() {
        return quoted;
    }

    /** The text itself, read back from its JSON (for tests and messages: a request's body never needs it). */
    public String text() {
        return Json.read(quoted, String.class);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EscapedText other && Arrays.equals(quoted, other.quoted);
    }

    @Override
    public int hashCode() {
        int h = hash;
        if (h == 0) {
            h = Arrays.hashCode(quoted);
            hash = h;
        }
        return h;
    }

    @Override
    public String toString() {
        return text();
    }
}
