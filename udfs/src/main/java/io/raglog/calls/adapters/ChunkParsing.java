package io.raglog.calls.adapters;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Parses a streamed reply's chunks one by one for a {@link Sse.ChunkReader}. The reader's first complaint is held
 * until every chunk is parsed: a chunk that is not JSON is what a stream is refused for, wherever it is, as when
 * every chunk was parsed into a tree before any was read. A raw stream's chunks come here a parser each (the way
 * any stream can be read, and the one a test holds {@link LaidChunks} to) or, most streams, from one parser that
 * {@link LaidChunks} moves from chunk to chunk.
 */
final class ChunkParsing {

    private final Sse.ChunkReader reader;
    /** Events seen, those without JSON ({@code [DONE]}, empty data) included: the number an error names. */
    private int events;
    private AdapterException complaint;
    /**
     * The event's data handed to the parser in place, one buffer per thread rather than a String an event (or a
     * buffer a stream: a profile of the job put those at a few percent of its allocation, issue #27). Reading a stream
     * never starts another on the same thread. A buffer grown past {@link #MAX_KEPT_CHARS} is not kept.
     */
    private static final ThreadLocal<char[]> CHARS = ThreadLocal.withInitial(() -> new char[1024]);
    private static final int MAX_KEPT_CHARS = 1 << 16;

    ChunkParsing(Sse.ChunkReader reader) {
        this.reader = reader;
    }

    /** One event of a raw stream: its data, past the white space String.strip drops, is JSON but for [DONE]. */
    void read(String event, String text, int start, int end) throws AdapterException {
        events++;
        start = dataStart(text, start, end);
        end = dataEnd(text, start, end);
        if (isJsonless(text, start, end)) {
            return;
        }
        int length = end - start;
        char[] chars = CHARS.get();
        if (chars.length < length) {
            chars = new char[Math.max(length, 2 * chars.length)];
            if (chars.length <= MAX_KEPT_CHARS) {
                CHARS.set(chars);
            }
        }
        text.getChars(start, end, chars, 0);
        try (JsonParser chunk = Json.MAPPER.getFactory().createParser(chars, 0, length)) {
            read(chunk, event);
        } catch (IOException notJson) {
            throw notJson(events, text.substring(start, end));
        }
    }

    /** Where an event's data starts past the white space String.strip drops. */
    static int dataStart(String text, int start, int end) {
        while (start < end && Character.isWhitespace(text.charAt(start))) {
            start++;
        }
        return start;
    }

    /** Where an event's data ends before the white space String.strip drops, {@code start} being its start. */
    static int dataEnd(String text, int start, int end) {
        while (end > start && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        return end;
    }

    /** True for stripped data that carries no chunk: none, or the {@code [DONE]} sentinel. */
    static boolean isJsonless(String text, int start, int end) {
        int length = end - start;
        return length == 0 || (length == Sse.DONE.length() && text.startsWith(Sse.DONE, start));
    }

    /** What a stream is refused for when the data of its {@code event}th event (counted from 1) is not JSON. */
    static AdapterException notJson(int event, String data) {
        return new AdapterException("stream event " + event + " data is not JSON: "
                + (data.length() > 60 ? data.substring(0, 60) + "..." : data));
    }

    /** One chunk a proxy recorded already parsed. */
    void read(JsonNode chunk) {
        try (JsonParser parser = chunk.traverse(Json.MAPPER)) {
            read(parser, null);
        } catch (IOException cannotHappen) {
            throw new UncheckedIOException(cannotHappen); // a tree in memory is read without I/O
        }
    }

    /**
     * The chunk at the parser's next token, the parser being one of its own or one that reads chunk after chunk
     * ({@link LaidChunks}): the reader's or, once it has complained, skipped.
     */
    void read(JsonParser chunk, String event) throws IOException {
        chunk.nextToken();
        if (complaint != null) {
            chunk.skipChildren();
        } else {
            try {
                reader.read(chunk, event);
            } catch (AdapterException e) {
                complaint = e;
            }
        }
        // a chunk that is one string is only checked once its text is read
        chunk.finishToken();
    }

    /** @throws AdapterException the reader's first complaint, once every chunk parsed */
    void finish() throws AdapterException {
        if (complaint != null) {
            throw complaint;
        }
    }
}
