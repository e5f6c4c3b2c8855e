package io.raglog.calls.adapters;

import com.fasterxml.jackson.core.JsonParser;
import io.raglog.calls.AdapterException;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * A raw stream's chunks laid one after another, a line each, in a buffer its thread keeps, for one parser to read them
 * all as a sequence of root values. A parser a chunk, made for dozens to hundreds of chunks a streamed reply, was some
 * 7 % of raglog's allocation (JFR, issue #27: the child contexts {@code JsonReadContext.createChildObjectContext}
 * made under {@code OpenAiChatStream.readChoice} and {@code AnthropicStream.read} 4.3 %, the parsers and their
 * {@code IOContext}s 3 % more); one parser makes its contexts once a stream and reuses them chunk after chunk.
 *
 * <p>Only a stream whose every chunk is one JSON object ending where its data ends ({@link OneJsonObject}) is laid
 * out: its chunks then read as each read with a parser of its own (the same tokens, the same callbacks, the same
 * failure at the same chunk). A stream with any other chunk (not JSON, truncated, trailing content, a string, a
 * number, an array), or whose chunks outgrow {@link #MAX_CHARS}, is read a parser a chunk as before, whole. The
 * chunks are all laid out before the first is read, where each used to be read as its event was found; nothing sees
 * the difference, finding events calling nobody but this.
 */
final class LaidChunks implements Sse.EventConsumer {

    /** The most chars a thread keeps for a stream's chunks (128 KB), as the buffer of a parser a chunk kept. */
    static final int MAX_CHARS = 1 << 16;

    private static final ThreadLocal<LaidChunks> FOR_THREAD = ThreadLocal.withInitial(LaidChunks::new);

    private char[] chars = new char[4096];
    private int length;
    /** Per chunk laid out: the number of its event (those without JSON counted), its event's name, its place. */
    private int[] eventNumbers = new int[64];
    private String[] eventNames = new String[64];
    private int[] starts = new int[64];
    private int[] ends = new int[64];
    private int chunks;
    private int events;
    private boolean laidOut;
    private boolean inUse;
    /** Off only for a test holding the one parser's reading to the parser a chunk's. */
    private boolean enabled = true;

    private LaidChunks() {}

    /** This thread's, or a new one in the unlikely case that a reader read a stream while its stream was read. */
    static LaidChunks take() {
        LaidChunks laid = FOR_THREAD.get();
        if (laid.inUse) {
            laid = new LaidChunks();
        }
        laid.inUse = true;
        return laid;
    }

    /** Reads this thread's streams a parser a chunk ({@code false}), or as usual again: for tests. */
    static void enableOnThisThread(boolean enabled) {
        FOR_THREAD.get().enabled = enabled;
    }

    /** Whether a raw stream would be read with one parser: tests hold the path taken to what they mean to test. */
    static boolean laysOut(String raw) throws AdapterException {
        LaidChunks laid = take();
        try {
            return laid.layOut(raw);
        } finally {
            laid.release();
        }
    }

    /** Lays out the chunks of a raw stream; false when it must be read a parser a chunk. */
    boolean layOut(String raw) throws AdapterException {
        if (!enabled) {
            return false;
        }
        laidOut = true;
        Sse.forEachEvent(raw, this);
        return laidOut;
    }

    @Override
    public void accept(String event, String text, int start, int end) {
        events++;
        if (!laidOut) {
            return;
        }
        start = ChunkParsing.dataStart(text, start, end);
        end = ChunkParsing.dataEnd(text, start, end);
        if (ChunkParsing.isJsonless(text, start, end)) {
            return;
        }
        int at = chunks == 0 ? 0 : length + 1; // after a line end, as white space between root values
        int next = at + end - start;
        if (next > MAX_CHARS) {
            laidOut = false;
            return;
        }
        if (next > chars.length) {
            chars = Arrays.copyOf(chars, Math.min(MAX_CHARS, Math.max(next, 2 * chars.length)));
        }
        if (chunks > 0) {
            chars[length] = '\n';
        }
        text.getChars(start, end, chars, at);
        if (!OneJsonObject.spans(chars, at, next)) {
            laidOut = false;
            return;
        }
        if (chunks == starts.length) {
            int more = 2 * chunks;
            eventNumbers = Arrays.copyOf(eventNumbers, more);
            eventNames = Arrays.copyOf(eventNames, more);
            starts = Arrays.copyOf(starts, more);
            ends = Arrays.copyOf(ends, more);
        }
        eventNumbers[chunks] = events;
        eventNames[chunks] = event;
        starts[chunks] = at;
        ends[chunks] = next;
        chunks++;
        length = next;
    }

    /** Reads the chunks laid out, in order, for {@code parsing}. */
    void read(ChunkParsing parsing) throws AdapterException {
        int next = 0;
        while (next < chunks) {
            next = readFrom(next, parsing);
        }
    }

    /**
     * Reads the chunks from {@code first} on with one parser; returns the next chunk to read, all being read unless a
     * reader left its chunk before the end: the rest of that one is not read, as when its parser was closed on it.
     */
    private int readFrom(int first, ChunkParsing parsing) throws AdapterException {
        try (JsonParser parser = Json.MAPPER.getFactory().createParser(chars, starts[first], length - starts[first])) {
            for (int chunk = first; chunk < chunks; chunk++) {
                try {
                    parsing.read(parser, eventNames[chunk]);
                } catch (IOException notJson) {
                    throw ChunkParsing.notJson(eventNumbers[chunk],
                            new String(chars, starts[chunk], ends[chunk] - starts[chunk]));
                }
                if (!parser.getParsingContext().inRoot()) {
                    return chunk + 1;
                }
            }
            return chunks;
        } catch (IOException cannotHappen) {
            throw new UncheckedIOException(cannotHappen); // closing a parser of chars in memory
        }
    }

    /** Ready for the next stream; the names of this one's events are not held. */
    void release() {
        Arrays.fill(eventNames, 0, chunks, null);
        length = 0;
        chunks = 0;
        events = 0;
        inUse = false;
    }
}
