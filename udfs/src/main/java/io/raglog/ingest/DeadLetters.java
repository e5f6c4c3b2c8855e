package io.raglog.ingest;

import io.raglog.schemas.DeadLetter;
import io.raglog.schemas.Json;
import io.raglog.schemas.SchemaIds;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Base64;

/** Builds dead letters that keep the original bytes: text when they are UTF-8, base64 when they are not. */
public final class DeadLetters {

    /** Reasons are for people; a runaway message (a whole stack trace) is cut. */
    static final int MAX_REASON_CHARS = 2_000;

    private DeadLetters() {}

    public static DeadLetter of(RawMessage message, String reason) {
        String text = utf8OrNull(message.payload());
        return new DeadLetter(SchemaIds.DEAD_LETTER_V1, message.origin(), message.partition(), message.offset(),
                reason.length() > MAX_REASON_CHARS ? reason.substring(0, MAX_REASON_CHARS) + "..." : reason,
                Instant.now(), text, text == null ? Base64.getEncoder().encodeToString(message.payload()) : null);
    }

    /** A decoded call that later turned out unusable (unreadable body, late): its JSON is the original payload. */
    public static DeadLetter ofCall(String origin, Object call, String reason) {
        return of(new RawMessage(origin, -1, -1, Json.writeBytes(call)), reason);
    }

    /** The bytes as text when they are valid UTF-8, else null. */
    static String utf8OrNull(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
