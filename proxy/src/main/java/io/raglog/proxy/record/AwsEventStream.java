package io.raglog.proxy.record;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.schemas.Json;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.zip.CRC32;

/**
 * Reads the AWS binary event-stream framing ({@code application/vnd.amazon.eventstream}) that Amazon Bedrock's
 * streaming APIs ({@code converse-stream}, {@code invoke-with-response-stream}) answer with, and writes its messages
 * as server-sent-events text. Recorded as raw bytes such a reply could only be the binary placeholder; as SSE it is
 * text the job's stream readers already take apart, one {@code event:} per message.
 */
final class AwsEventStream {

    static final String CONTENT_TYPE = "application/vnd.amazon.eventstream";

    /** Total length, headers length, prelude CRC. */
    private static final int PRELUDE_BYTES = 12;
    /** The smallest message: a prelude, no headers, no payload, the message CRC. */
    private static final int MIN_MESSAGE_BYTES = PRELUDE_BYTES + 4;

    /**
     * The SSE text of the messages decoded whole.
     *
     * @param partial decoding stopped before the end: a message cut short or one whose CRC does not match
     */
    record Sse(String text, boolean partial) {}

    private AwsEventStream() {}

    /** True for a {@code content-type} naming the framing, whatever its case and parameters. */
    static boolean is(String contentType) {
        if (contentType == null) {
            return false;
        }
        int semicolon = contentType.indexOf(';');
        String type = semicolon < 0 ? contentType : contentType.substring(0, semicolon);
        return type.strip().toLowerCase(Locale.ROOT).equals(CONTENT_TYPE);
    }

    /**
     * @return null when not even one message decodes whole
     * @throws CharacterCodingException when a payload is not UTF-8 text: the stream is recorded as binary then, not
     *     as text with holes
     */
    static Sse toSse(byte[] bytes) throws CharacterCodingException {
        StringBuilder out = new StringBuilder(bytes.length);
        ByteBuffer in = ByteBuffer.wrap(bytes); // big-endian, as the framing is
        int messages = 0;
        while (in.remaining() > 0) {
            int start = in.position();
            if (in.remaining() < PRELUDE_BYTES) {
                break;
            }
            int total = in.getInt(start);
            int headersLength = in.getInt(start + 4);
            if (crc(bytes, start, 8) != in.getInt(start + 8)) {
                break;
            }
            // The prelude's CRC held, so these lengths are what the sender wrote; a message that claims a size it
            // cannot have is not one to trust.
            if (total < MIN_MESSAGE_BYTES || headersLength < 0 || headersLength > total - MIN_MESSAGE_BYTES
                    || total > in.remaining()) {
                break;
            }
            if (crc(bytes, start, total - 4) != in.getInt(start + total - 4)) {
                break;
            }
            Map<String, String> headers = headers(in.slice(start + PRELUDE_BYTES, headersLength));
            if (headers == null) {
                break;
            }
            int payloadStart = start + PRELUDE_BYTES + headersLength;
            append(out, headers, utf8(in.slice(payloadStart, start + total - 4 - payloadStart)));
            in.position(start + total);
            messages++;
        }
        return messages == 0 ? null : new Sse(out.toString(), in.remaining() > 0);
    }

    private static void append(StringBuilder out, Map<String, String> headers, String payload) {
        String name;
        String data = payload;
        switch (headers.getOrDefault(":message-type", "event")) {
            case "exception" -> name = headers.getOrDefault(":exception-type", "exception");
            case "error" -> {
                name = "error";
                // written by Jackson so quotes and control characters in the message are escaped
                ObjectNode error = Json.MAPPER.createObjectNode()
                        .put("error_code", headers.get(":error-code"))
                        .put("error_message", headers.get(":error-message"));
                data = Json.write(error);
            }
            default -> name = headers.get(":event-type");
        }
        if (name != null) {
            out.append("event: ").append(name).append('\n');
        }
        // One data line per payload line: SSE joins them back into the one event's data.
        for (String line : data.split("\r\n|\r|\n", -1)) {
            out.append("data: ").append(line).append('\n');
        }
        out.append('\n');
    }

    /** The string-valued headers; null when the headers are malformed. */
    private static Map<String, String> headers(ByteBuffer in) {
        Map<String, String> headers = new HashMap<>();
        try {
            while (in.hasRemaining()) {
                String name = string(in, Byte.toUnsignedInt(in.get()));
                byte type = in.get();
                switch (type) {
                    case 0, 1 -> { } // boolean true, false: the type is the value
                    case 2 -> skip(in, 1);
                    case 3 -> skip(in, 2);
                    case 4 -> skip(in, 4);
                    case 5, 8 -> skip(in, 8); // long, timestamp
                    case 6 -> skip(in, Short.toUnsignedInt(in.getShort()));
                    case 7 -> headers.put(name, string(in, Short.toUnsignedInt(in.getShort())));
                    case 9 -> skip(in, 16); // UUID
                    default -> {
                        return null;
                    }
                }
            }
        } catch (BufferUnderflowException | IllegalArgumentException pastTheEnd) {
            return null;
        }
        return headers;
    }

    /** Past a value of this many bytes; the length is read first, so the skip starts after it. */
    private static void skip(ByteBuffer in, int length) {
        in.position(in.position() + length);
    }

    private static String string(ByteBuffer in, int length) {
        byte[] b = new byte[length];
        in.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    private static String utf8(ByteBuffer payload) throws CharacterCodingException {
        return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(payload)
                .toString();
    }

    private static int crc(byte[] bytes, int offset, int length) {
        CRC32 crc = new CRC32();
        crc.update(bytes, offset, length);
        return (int) crc.getValue();
    }
}
