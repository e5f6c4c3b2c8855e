package io.raglog.proxy.record;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Writes AWS event-stream messages as Bedrock sends them, CRCs and all, so tests decode real frames rather than bytes
 * shaped by the decoder they test.
 */
public final class EventStreamFrames {

    private EventStreamFrames() {}

    /** An {@code event} message with a JSON payload. */
    public static byte[] event(String eventType, String payload) {
        return message(payload, header(":event-type", eventType), header(":content-type", "application/json"),
                header(":message-type", "event"));
    }

    /** An {@code exception} message: the exception's name in {@code :exception-type}, a JSON payload. */
    public static byte[] exception(String exceptionType, String payload) {
        return message(payload, header(":exception-type", exceptionType), header(":content-type", "application/json"),
                header(":message-type", "exception"));
    }

    /** An {@code error} message: code and message in headers, no payload. */
    public static byte[] error(String code, String message) {
        return message("", header(":error-code", code), header(":error-message", message),
                header(":message-type", "error"));
    }

    /** A message with these headers (each from {@link #header}) and a UTF-8 payload. */
    public static byte[] message(String payload, byte[]... headers) {
        return message(payload.getBytes(StandardCharsets.UTF_8), headers);
    }

    public static byte[] message(byte[] payload, byte[]... headers) {
        ByteArrayOutputStream h = new ByteArrayOutputStream();
        for (byte[] header : headers) {
            h.writeBytes(header);
        }
        int total = 12 + h.size() + payload.length + 4;
        ByteBuffer out = ByteBuffer.allocate(total);
        out.putInt(total).putInt(h.size());
        out.putInt(crc(out.array(), 8));
        out.put(h.toByteArray()).put(payload);
        out.putInt(crc(out.array(), total - 4));
        return out.array();
    }

    /** A string header (value type 7). */
    public static byte[] header(String name, String value) {
        byte[] v = value.getBytes(StandardCharsets.UTF_8);
        return header(name, 7, ByteBuffer.allocate(2 + v.length).putShort((short) v.length).put(v).array());
    }

    /** A header of any value type, its value already encoded. */
    public static byte[] header(String name, int type, byte[] value) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(1 + n.length + 1 + value.length).put((byte) n.length).put(n).put((byte) type)
                .put(value).array();
    }

    /** Messages one after another, as a reply's body carries them. */
    public static byte[] stream(byte[]... messages) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] m : messages) {
            out.writeBytes(m);
        }
        return out.toByteArray();
    }

    private static int crc(byte[] bytes, int length) {
        CRC32 crc = new CRC32();
        crc.update(bytes, 0, length);
        return (int) crc.getValue();
    }
}
