package io.raglog.ingest;

import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.Json;
import io.raglog.schemas.SchemaIds;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;

/**
 * Builds dead letters that keep the original bytes, credentials redacted ({@link Credentials}): text when they are
 * UTF-8, base64 when they are not.
 */
public final class DeadLetters {

    /** Reasons are for people; a runaway message (a whole stack trace) is cut. */
    static final int MAX_REASON_CHARS = 2_000;

    /**
     * The most of a message a dead letter keeps. Kafka takes about 1 MB per record by default, and a payload grows
     * when written (by a third in base64, up to six times for control characters escaped in JSON): a dead letter of a
     * near-limit message would be refused by the dead-letter topic and fail the job. The head of a message is what a
     * person needs to see what it was.
     */
    public static final int MAX_PAYLOAD_BYTES = 128 * 1024;

    private static final ThreadLocal<StrictUtf8> STRICT_UTF8 = ThreadLocal.withInitial(StrictUtf8::new);

    private DeadLetters() {}

    public static DeadLetter of(RawMessage message, String reason) {
        byte[] whole = message.payload() == null ? new byte[0] : message.payload();
        byte[] head = head(whole);
        // redaction changes the length too: whether the payload was cut is told by the head alone
        byte[] payload = Credentials.redactPayload(head);
        String why = reason.length() > MAX_REASON_CHARS ? reason.substring(0, MAX_REASON_CHARS) + "..." : reason;
        if (head.length < whole.length) {
            why += " (payload cut to its first " + head.length + " of " + whole.length + " bytes)";
        }
        String text = utf8OrNull(payload);
        return new DeadLetter(SchemaIds.DEAD_LETTER_V1, message.origin(), message.partition(), message.offset(), why,
                Instant.now(), text, text == null ? Base64.getEncoder().encodeToString(payload) : null);
    }

    /** At most {@link #MAX_PAYLOAD_BYTES}, cut before a UTF-8 continuation byte so valid text stays valid. */
    private static byte[] head(byte[] payload) {
        if (payload.length <= MAX_PAYLOAD_BYTES) {
            return payload;
        }
        int end = MAX_PAYLOAD_BYTES;
        while (end > MAX_PAYLOAD_BYTES - 4 && (payload[end] & 0xC0) == 0x80) {
            end--;
        }
        return Arrays.copyOf(payload, end);
    }

    /** A decoded call that later turned out unusable (unreadable body, late): its JSON is the original payload. */
    public static DeadLetter ofCall(String origin, Object call, String reason) {
        return of(new RawMessage(origin, -1, -1, Json.writeBytes(call)), reason);
    }

    /**
     * Whether the bytes are valid UTF-8. ASCII is valid as it is: the decoder is needed only from the first byte
     * above 0x7F.
     */
    public static boolean isUtf8(byte[] bytes) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] < 0) {
                // the bytes before are whole ASCII characters: the check starts at the first that is not
                return decodesStrictly(ByteBuffer.wrap(bytes, i, bytes.length - i));
            }
        }
        return true;
    }

    /**
     * Decodes into this thread's scratch buffer, which is emptied whenever it fills: the text is not kept, only
     * whether the decoder refused a byte. Before, every non-ASCII call was decoded into a new string to be checked
     * (a quarter of what decoding a call allocated). No flush: UTF-8 keeps nothing back to flush at the end of the
     * input, and the decoder is reset before each use.
     */
    private static boolean decodesStrictly(ByteBuffer in) {
        StrictUtf8 strict = STRICT_UTF8.get();
        CharsetDecoder decoder = strict.decoder.reset();
        CoderResult result;
        do {
            strict.scratch.clear();
            result = decoder.decode(in, strict.scratch, true);
        } while (result.isOverflow());
        return !result.isError();
    }

    /** The bytes as text when they are valid UTF-8, else null. */
    static String utf8OrNull(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            return strictDecoder().decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }

    /** A decoder that refuses malformed input, and the buffer it decodes into. */
    private static final class StrictUtf8 {
        final CharsetDecoder decoder = strictDecoder();
        final CharBuffer scratch = CharBuffer.allocate(4096);
    }

    private static CharsetDecoder strictDecoder() {
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
    }
}
