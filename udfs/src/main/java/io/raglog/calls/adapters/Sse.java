package io.raglog.calls.adapters;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.schemas.Json;
import java.io.IOException;

/**
 * Reads a streamed reply recorded as the raw {@code text/event-stream} body: events separated by blank lines,
 * {@code event:} naming the event, one or more {@code data:} lines carrying it, {@code :} comments ignored.
 */
public final class Sse {

    /** The data of OpenAI-style streams' last event, which is not JSON. */
    public static final String DONE = "[DONE]";

    /** Receives a stream's events as they are read. */
    @FunctionalInterface
    interface EventConsumer {
        /**
         * One event, its data being {@code text} from {@code start} to {@code end}: the stream itself for a
         * one-line event (most are), else the event's lines joined.
         *
         * @param event the event's name, or null when the stream does not name its events (OpenAI)
         */
        void accept(String event, String text, int start, int end) throws AdapterException;
    }

    /** Reads one JSON chunk of a streamed reply as it is parsed, keeping only what its vendor's reply is made of. */
    @FunctionalInterface
    public interface ChunkReader {
        /**
         * Reads the chunk's value whole, the parser at its first token. A vendor's reader takes what it wants and
         * skips the rest, so no tree is built for fields nobody reads. It reads no token past the value: the parser
         * may go on to the stream's next chunk ({@link LaidChunks}).
         *
         * @param event the event's name when the stream names its events; a reader uses it as the chunk's
         *     {@code type} when the chunk has none
         * @throws AdapterException when a field the reader wants has the wrong type, once the chunk is read
         */
        void read(JsonParser chunk, String event) throws IOException, AdapterException;
    }

    private Sse() {}

    /** True when a recorded body is an event stream rather than a JSON document. */
    public static boolean isStream(JsonNode body) {
        if (body == null || !body.isTextual()) {
            return false;
        }
        String t = body.textValue().stripLeading();
        return t.startsWith("data:") || t.startsWith("event:") || t.startsWith(":") || t.startsWith("id:")
                || t.contains("\ndata:");
    }

    /**
     * Hands each event of a raw stream to {@code consumer}, in order. Lines end at {@code \n}, {@code \r\n} or
     * {@code \r}; they are found in place rather than split into a String each (the split and its two
     * {@code replace} copies were a twentieth of what decoding a call allocated, JFR).
     */
    static void forEachEvent(String raw, EventConsumer consumer) throws AdapterException {
        String event = null;
        // the name the last event had: a stream's deltas name themselves alike, one after another, and a String each
        // was made for the same name (content_block_delta, response.output_text.delta) dozens of times a reply
        String lastName = null;
        // an event's data: its one line where it is (most events have one), or the lines joined once there are more
        int dataStart = -1;
        int dataEnd = -1;
        StringBuilder moreData = null;
        int lineStart = 0;
        int length = raw.length();
        while (lineStart <= length) {
            int lineEnd = lineStart;
            int colon = -1;
            for (char c; lineEnd < length && (c = raw.charAt(lineEnd)) != '\n' && c != '\r'; lineEnd++) {
                if (c == ':' && colon < 0) {
                    colon = lineEnd;
                }
            }
            int next = lineEnd + (raw.startsWith("\r\n", lineEnd) ? 2 : 1);
            if (lineEnd == lineStart) {
                if (dataStart >= 0) {
                    dispatch(consumer, event, raw, dataStart, dataEnd, moreData);
                }
                event = null;
                dataStart = -1;
                moreData = null;
            } else if (raw.charAt(lineStart) != ':') {
                // the field is the line up to its colon (all of it without one); only an event's or data's value
                // is read, and its one leading space is not part of it
                int fieldEnd = colon < 0 ? lineEnd : colon;
                int valueStart = fieldEnd == lineEnd ? lineEnd
                        : fieldEnd + (fieldEnd + 1 < lineEnd && raw.charAt(fieldEnd + 1) == ' ' ? 2 : 1);
                if (isField(raw, lineStart, fieldEnd, "event")) {
                    boolean again = lastName != null && lastName.length() == lineEnd - valueStart
                            && raw.startsWith(lastName, valueStart);
                    event = again ? lastName : raw.substring(valueStart, lineEnd);
                    lastName = event;
                } else if (isField(raw, lineStart, fieldEnd, "data")) {
                    if (dataStart < 0) {
                        dataStart = valueStart;
                        dataEnd = lineEnd;
                    } else {
                        if (moreData == null) {
                            moreData = new StringBuilder().append(raw, dataStart, dataEnd);
                        }
                        moreData.append('\n').append(raw, valueStart, lineEnd);
                    }
                }
            }
            lineStart = next;
        }
        if (dataStart >= 0) {
            // a recording cut before the final blank line
            dispatch(consumer, event, raw, dataStart, dataEnd, moreData);
        }
    }

    private static boolean isField(String raw, int start, int end, String name) {
        return end - start == name.length() && raw.startsWith(name, start);
    }

    private static void dispatch(EventConsumer consumer, String event, String raw, int dataStart, int dataEnd,
            StringBuilder moreData) throws AdapterException {
        if (moreData == null) {
            consumer.accept(event, raw, dataStart, dataEnd);
        } else {
            consumer.accept(event, moreData.toString(), 0, moreData.length());
        }
    }

    /**
     * Reads the JSON payloads of a streamed reply, in order, without the {@code [DONE]} sentinel: the raw event
     * stream or, as some proxies record it, an array of already-parsed chunks. Every chunk is parsed before a
     * reader's complaint about one is raised, so a stream with a chunk that is not JSON is refused for that
     * whatever the chunks before it held.
     *
     * @throws AdapterException when an event's data is not JSON, or else the reader's first complaint
     */
    public static void readChunks(JsonNode body, ChunkReader reader) throws AdapterException {
        ChunkParsing parsing = new ChunkParsing(reader);
        if (body != null && body.isArray()) {
            for (JsonNode chunk : body) {
                parsing.read(chunk);
            }
        } else if (body != null && body.isTextual()) {
            readEvents(body.textValue(), parsing);
        } else {
            throw new AdapterException("streamed reply is " + Bodies.describe(body) + ", expected an event stream");
        }
        parsing.finish();
    }

    /** A raw stream's chunks read with one parser when they can be ({@link LaidChunks}), else a parser a chunk. */
    private static void readEvents(String raw, ChunkParsing parsing) throws AdapterException {
        LaidChunks laid = LaidChunks.take();
        try {
            if (laid.layOut(raw)) {
                laid.read(parsing);
            } else {
                forEachEvent(raw, parsing::read);
            }
        } finally {
            laid.release();
        }
    }
}
