package io.raglog.ingest;

import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.Json;
import io.raglog.schemas.SchemaIds;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
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

    /** Whether the bytes are valid UTF-8: what {@link #utf8OrNull} decodes, checked without decoding them. */
    public static boolean isUtf8(byte[] bytes) {
        return WellFormedUtf8.check(bytes);
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

    private static CharsetDecoder strictDecoder() {
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
    }
}
