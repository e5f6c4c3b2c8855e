package io.raglog.calls.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.node.TextNode;
import io.raglog.calls.AdapterException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A raw stream's chunks read with one parser ({@link LaidChunks}) give what a parser a chunk gave: the same reader
 * callbacks with the same tokens and event names, in the same order, and the same refusal (message and event
 * number) or complaint. Every case is read both ways and compared; for the malformed ones the parser a chunk's
 * result is the one that counts, whether the stream was laid out or not.
 */
class LaidChunksTest {

    private static final String OK1 = "{\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"He\"}}]}";
    private static final String OK2 = "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"llo\"}}],\"usage\":null}";
    private static final String OK3 = "{\"type\":\"content_block_delta\",\"delta\":{\"text\":\"x\",\"n\":-1.5e3}}";

    /** What a stream gave a recording reader: the chunks as it saw them, and the refusal if any. */
    record Outcome(List<String> chunks, String refusal) {}

    /**
     * A reader that records each chunk's tokens (at most {@code tokens} of them, leaving the rest of the chunk
     * unread beyond that) and complains about a chunk holding the word "complain".
     */
    private static Sse.ChunkReader recording(List<String> seen, int tokens) {
        return (chunk, event) -> {
            StringBuilder chunkSeen = new StringBuilder().append(event).append(':');
            int depth = 0;
            int read = 0;
            for (JsonToken t = chunk.currentToken(); t != null; t = chunk.nextToken()) {
                chunkSeen.append(t).append(' ');
                if (t.isScalarValue() || t == JsonToken.FIELD_NAME) {
                    chunkSeen.append(chunk.getText()).append(' ');
                }
                depth += t.isStructStart() ? 1 : t.isStructEnd() ? -1 : 0;
                if (depth == 0 || ++read == tokens) {
                    break;
                }
            }
            seen.add(chunkSeen.toString());
            if (chunkSeen.indexOf("complain") >= 0) {
                throw new AdapterException("complaint " + seen.size());
            }
        };
    }

    private static Outcome read(String raw, boolean oneParser, int tokens) {
        List<String> seen = new ArrayList<>();
        LaidChunks.enableOnThisThread(oneParser);
        try {
            Sse.readChunks(TextNode.valueOf(raw), recording(seen, tokens));
            return new Outcome(seen, null);
        } catch (AdapterException e) {
            return new Outcome(seen, e.getMessage());
        } finally {
            LaidChunks.enableOnThisThread(true);
        }
    }

    private static String stream(String... data) {
        StringBuilder raw = new StringBuilder();
        for (String d : data) {
            raw.append("data: ").append(d).append("\n\n");
        }
        return raw.toString();
    }

    /** Reads {@code raw} both ways and holds them equal; returns the parser a chunk's outcome. */
    private static Outcome sameBothWays(String raw) {
        Outcome perChunk = read(raw, false, Integer.MAX_VALUE);
        assertThat(read(raw, true, Integer.MAX_VALUE)).as("[%s]", raw).isEqualTo(perChunk);
        for (int tokens = 1; tokens <= 4; tokens++) {
            assertThat(read(raw, true, tokens)).as("[%s] %d tokens", raw, tokens)
                    .isEqualTo(read(raw, false, tokens));
        }
        return perChunk;
    }

    @Test
    void shouldReadWellFormedChunksWithOneParser() throws AdapterException {
        String raw = stream(OK1, OK2, OK3, "[DONE]");
        assertThat(LaidChunks.laysOut(raw)).isTrue();
        Outcome o = sameBothWays(raw);
        assertThat(o.refusal()).isNull();
        assertThat(o.chunks()).hasSize(3);
    }

    @Test
    void shouldPassEventNamesAndJoinedDataLines() throws AdapterException {
        String raw = "event: message_start\ndata: " + OK1 + "\n\n: comment\nevent: ping\r\ndata: {\"a\":\r\ndata: 1}"
                + "\r\n\r\ndata:" + OK2 + "\n\nevent: last\ndata: " + OK3;
        assertThat(LaidChunks.laysOut(raw)).isTrue();
        Outcome o = sameBothWays(raw);
        assertThat(o.chunks()).hasSize(4);
        assertThat(o.chunks().get(0)).startsWith("message_start:");
        assertThat(o.chunks().get(1)).startsWith("ping:");
        assertThat(o.chunks().get(2)).startsWith("null:");
        assertThat(o.chunks().get(3)).startsWith("last:");
    }

    @Test
    void shouldReadStringsWithBracketsQuotesBackslashesAndUnicodeEscapesWithOneParser() throws AdapterException {
        String[] chunks = {"{\"s\":\"}{][\"}", "{\"s\":\"a\\\"}b\\\\\",\"t\":[\"]\"]}", "{\"s\":\"\\\\\"}",
            "{\"s\":\"\\\\\\\"}\"}", "{\"s\":\"\\u007d\\u0022\\u005c\\ud83d\\ude00\"}", "{\"\\\"}\":{\"[\":\"{\"}}",
            "{\"é😀\":\"\u2028\"}", "{}", "{ \"a\" : [ ] , \"b\" : { } }"};
        for (String chunk : chunks) {
            String raw = stream(OK1, chunk, OK2);
            assertThat(LaidChunks.laysOut(raw)).as(chunk).isTrue();
            assertThat(sameBothWays(raw)).as(chunk).isEqualTo(new Outcome(sameBothWays(raw).chunks(), null));
        }
    }

    @Test
    void shouldSkipDoneAndEmptyDataWhereverTheyAre() throws AdapterException {
        String raw = stream("[DONE]", OK1, "", "   ", "[DONE]", OK2, " [DONE] ", OK3, "[DONE]");
        assertThat(LaidChunks.laysOut(raw)).isTrue();
        assertThat(sameBothWays(raw).chunks()).hasSize(3);
    }

    @Test
    void shouldRefuseChunksThatAreNotJsonAsAParserAChunkDid() throws AdapterException {
        // balanced objects whose JSON is wrong inside: laid out, and failing where a parser of their own fails
        String[] inside = {"{\"a\":tru}", "{\"a\" 1}", "{\"a\":1,}", "{]", "{\"a\":[}]", "{[}]", "{\"a\":01}",
            "{\"a\":\"\\q\"}", "{\"a\":\"tab\there\"}", "{'a':1}", "{\"a\":1 /* c */}", "{\"a\":NaN}",
            "{\"a\":\"\\u12\"}", "{a:1}"};
        // not one object: read a parser a chunk, the whole stream
        String[] notOne = {"{\"a\":1} trailing", "{\"a\":1}{\"b\":2}", "{\"a\":", "{\"a\":\"x}", "\"text\"", "5",
            "-1.5", "[1,{\"choices\":2}]", "[]", "null", "true", "1x", "<html>oops", "\"bad \\q\"", "{",
            "{\"a\":1}]", "{\"a\":1}}", "{\"a\":\"\\", "x" + OK1};
        for (String bad : inside) {
            for (String raw : withOneOdd(bad)) {
                assertThat(LaidChunks.laysOut(raw)).as(raw).isTrue();
                assertThat(sameBothWays(raw).refusal()).as(raw).contains("data is not JSON");
            }
        }
        for (String bad : notOne) {
            for (String raw : withOneOdd(bad)) {
                assertThat(LaidChunks.laysOut(raw)).as(raw).isFalse();
                sameBothWays(raw); // refused, or (trailing content, a root that is no object) read as before
            }
        }
        assertThat(read(stream(OK1, "{\"a\":tru}", OK2), true, Integer.MAX_VALUE).refusal())
                .isEqualTo("stream event 2 data is not JSON: {\"a\":tru}");
        assertThat(read(stream("[DONE]", "", OK1, "{\"a\":1,}"), true, Integer.MAX_VALUE).refusal())
                .isEqualTo("stream event 4 data is not JSON: {\"a\":1,}");
    }

    /** Streams with {@code odd} first, in the middle, last, after a complaint and before one. */
    private static List<String> withOneOdd(String odd) {
        return List.of(stream(odd, OK1, OK2), stream(OK1, odd, OK2), stream(OK1, OK2, odd),
                stream(OK1, "{\"complain\":1}", odd, OK2), stream(odd, "{\"complain\":1}"));
    }

    @Test
    void shouldTellOneObjectFromTheRest() throws AdapterException {
        for (String one : List.of(OK1, "{\"a\":tru}", "{]", "{\"s\":\"}\"}")) {
            assertThat(LaidChunks.laysOut(stream(OK1, one))).as(one).isTrue();
        }
        for (String notOne : List.of("{\"a\":1} trailing", "{\"a\":1}{}", "{\"a\":", "{\"a\":\"x}", "\"t\"", "5",
                "[1]", "{", "{\"a\":\"\\", "x{}")) {
            assertThat(LaidChunks.laysOut(stream(OK1, notOne))).as(notOne).isFalse();
        }
    }

    @Test
    void shouldHoldTheFirstComplaintUntilEveryChunkIsParsed() {
        Outcome complained = sameBothWays(stream(OK1, "{\"complain\":1}", OK2, "{\"complain\":2}", OK3));
        assertThat(complained.refusal()).isEqualTo("complaint 2");
        assertThat(complained.chunks()).hasSize(2); // chunks after a complaint are parsed, not read
        assertThat(sameBothWays(stream("{\"complain\":1}", OK2, "{\"a\":tru}")).refusal())
                .isEqualTo("stream event 3 data is not JSON: {\"a\":tru}");
    }

    @Test
    void shouldReadStreamsTooLongToLayOutAParserAChunk() throws AdapterException {
        List<String> chunks = new ArrayList<>();
        for (int i = 0; chunks.size() * OK1.length() < 2 * LaidChunks.MAX_CHARS; i++) {
            chunks.add(i % 97 == 5 ? "{\"complain\":" + i + "}" : OK1);
        }
        String raw = stream(chunks.toArray(String[]::new));
        assertThat(LaidChunks.laysOut(raw)).isFalse();
        assertThat(sameBothWays(raw).refusal()).isEqualTo("complaint 6");
        String justFits = stream(chunks.subList(0, LaidChunks.MAX_CHARS / (OK1.length() + 1)).toArray(String[]::new));
        assertThat(LaidChunks.laysOut(justFits)).isTrue();
        sameBothWays(justFits);
    }

    @Test
    void shouldRefuseNestingTooDeepAsAParserAChunkDid() throws AdapterException {
        String deep = "{\"a\":" + "[".repeat(300) + "]".repeat(300) + "}";
        String raw = stream(OK1, deep, OK2);
        assertThat(LaidChunks.laysOut(raw)).isTrue();
        assertThat(sameBothWays(raw).refusal()).startsWith("stream event 2 data is not JSON: ");
    }

    @Test
    void shouldReadRandomStreamsAsAParserAChunkDid() {
        String[] pieces = {OK1, OK2, OK3, "{\"complain\":true}", "[DONE]", "", " ", "{\"a\":tru}", "{\"a\":1} x",
            "{\"a\":", "\"s\"", "7", "[{}]", "{\"s\":\"}\\\"{\"}", "{\"a\":{\"b\":[1,2,{\"c\":null}]}}", "{]"};
        String[] lineEnds = {"\n", "\r\n", "\r"};
        SplittableRandom random = new SplittableRandom(27);
        for (int i = 0; i < 3_000; i++) {
            StringBuilder raw = new StringBuilder();
            String end = lineEnds[random.nextInt(lineEnds.length)];
            for (int n = random.nextInt(0, 8), k = 0; k < n; k++) {
                if (random.nextInt(4) == 0) {
                    raw.append("event: e").append(k).append(end);
                }
                raw.append("data: ").append(pieces[random.nextInt(pieces.length)]).append(end);
                if (random.nextInt(8) != 0) {
                    raw.append(end);
                }
            }
            sameBothWays(raw.toString());
        }
    }
}
