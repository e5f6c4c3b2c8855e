package io.raglog.proxy.record;

import static io.raglog.proxy.record.EventStreamFrames.error;
import static io.raglog.proxy.record.EventStreamFrames.event;
import static io.raglog.proxy.record.EventStreamFrames.exception;
import static io.raglog.proxy.record.EventStreamFrames.header;
import static io.raglog.proxy.record.EventStreamFrames.message;
import static io.raglog.proxy.record.EventStreamFrames.stream;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class AwsEventStreamTest {

    private static final String EVENT_STREAM = "application/vnd.amazon.eventstream";

    private static final String START = "{\"role\":\"assistant\",\"p\":\"abcd\"}";
    private static final String DELTA_1 = "{\"contentBlockIndex\":0,\"delta\":{\"text\":\"Acme\"},\"p\":\"abcd\"}";
    private static final String DELTA_2 = "{\"contentBlockIndex\":0,\"delta\":{\"text\":\" reported\"},"
            + "\"p\":\"abcdefgh\"}";
    private static final String DELTA_3 = "{\"contentBlockIndex\":0,\"delta\":{\"text\":\" growth.\"},\"p\":\"ab\"}";
    private static final String STOP_BLOCK = "{\"contentBlockIndex\":0,\"p\":\"abcdefghijk\"}";
    private static final String STOP = "{\"stopReason\":\"end_turn\",\"p\":\"abcdefghij\"}";
    private static final String METADATA = "{\"usage\":{\"inputTokens\":12,\"outputTokens\":3,\"totalTokens\":15},"
            + "\"metrics\":{\"latencyMs\":400}}";

    private static final byte[] CONVERSE = stream(event("messageStart", START), event("contentBlockDelta", DELTA_1),
            event("contentBlockDelta", DELTA_2), event("contentBlockDelta", DELTA_3),
            event("contentBlockStop", STOP_BLOCK), event("messageStop", STOP), event("metadata", METADATA));

    private static final String CONVERSE_SSE = "event: messageStart\ndata: " + START + "\n\n"
            + "event: contentBlockDelta\ndata: " + DELTA_1 + "\n\n"
            + "event: contentBlockDelta\ndata: " + DELTA_2 + "\n\n"
            + "event: contentBlockDelta\ndata: " + DELTA_3 + "\n\n"
            + "event: contentBlockStop\ndata: " + STOP_BLOCK + "\n\n"
            + "event: messageStop\ndata: " + STOP + "\n\n"
            + "event: metadata\ndata: " + METADATA + "\n\n";

    private static RecordedBody.Decoded decode(CapturedBody body, String contentType) {
        return RecordedBody.decode(body, null, contentType, 1 << 20);
    }

    private static RecordedBody.Decoded decode(byte[] bytes) {
        return decode(new CapturedBody(bytes, bytes.length), EVENT_STREAM);
    }

    @Test
    void shouldEncodeFramesAsTheAwsReferenceVectorDoes() {
        // aws-c-event-stream's "one string header" vector: the test encoder and the decoder agree with AWS, not
        // only with each other.
        byte[] reference = HexFormat.of().parseHex("0000003d0000002007fd83960c636f6e74656e742d747970650700106170706c69"
                + "636174696f6e2f6a736f6e7b27666f6f273a27626172277d8d9c08b1");
        assertThat(message("{'foo':'bar'}", header("content-type", "application/json"))).isEqualTo(reference);
        assertThat(decode(reference).value().textValue()).as("no :event-type, so no event line")
                .isEqualTo("data: {'foo':'bar'}\n\n");
    }

    @Test
    void shouldRecordAConverseStreamAsServerSentEvents() {
        RecordedBody.Decoded decoded = decode(CONVERSE);
        assertThat(decoded.value().textValue()).isEqualTo(CONVERSE_SSE);
        assertThat(decoded.partial()).isFalse();
    }

    @Test
    void shouldKeepAnInvokeStreamsChunkPayloadAsItIs() {
        String first = "{\"bytes\":\"eyJ0eXBlIjoibWVzc2FnZV9zdGFydCJ9\"}";
        String second = "{\"bytes\":\"eyJ0eXBlIjoiY29udGVudF9ibG9ja19kZWx0YSIsImRlbHRhIjp7InRleHQiOiJBY21lIn19\"}";
        assertThat(decode(stream(event("chunk", first), event("chunk", second))).value().textValue())
                .isEqualTo("event: chunk\ndata: " + first + "\n\nevent: chunk\ndata: " + second + "\n\n");
    }

    @Test
    void shouldNameExceptionsAndErrorsByTheirTypes() {
        String throttled = "{\"message\":\"Too many requests, please wait before trying again.\"}";
        byte[] body = stream(event("messageStart", START), event("contentBlockDelta", DELTA_1),
                exception("throttlingException", throttled),
                error("InternalFailure", "The \"model\" failed\nunexpectedly"));

        assertThat(decode(body).value().textValue()).isEqualTo("event: messageStart\ndata: " + START + "\n\n"
                + "event: contentBlockDelta\ndata: " + DELTA_1 + "\n\n"
                + "event: throttlingException\ndata: " + throttled + "\n\n"
                + "event: error\ndata: {\"error_code\":\"InternalFailure\","
                + "\"error_message\":\"The \\\"model\\\" failed\\nunexpectedly\"}\n\n");
    }

    @Test
    void shouldSkipHeadersOfEveryOtherValueType() {
        byte[] withAll = message(DELTA_1, header("flag", 0, new byte[0]), header("off", 1, new byte[0]),
                header("b", 2, new byte[1]), header("s", 3, new byte[2]), header("i", 4, new byte[4]),
                header("l", 5, new byte[8]), header("bytes", 6, new byte[] {0, 3, 1, 2, 3}),
                header(":event-type", "contentBlockDelta"), header("t", 8, new byte[8]), header("id", 9, new byte[16]),
                header(":message-type", "event"));
        assertThat(decode(withAll).value().textValue())
                .isEqualTo("event: contentBlockDelta\ndata: " + DELTA_1 + "\n\n");
    }

    @Test
    void shouldWriteAPayloadOfSeveralLinesAsOneEventOfSeveralDataLines() {
        assertThat(decode(event("note", "{\"a\":1,\n\"b\":2}\r\n")).value().textValue())
                .isEqualTo("event: note\ndata: {\"a\":1,\ndata: \"b\":2}\ndata: \n\n");
    }

    @Test
    void shouldKeepTheMessagesBeforeACutAndSaySo() {
        int secondEnds = event("messageStart", START).length + event("contentBlockDelta", DELTA_1).length;
        String twoEvents = "event: messageStart\ndata: " + START + "\n\nevent: contentBlockDelta\ndata: " + DELTA_1
                + "\n\n";
        byte[] cutMidFrame = Arrays.copyOf(CONVERSE, secondEnds + 20);

        RecordedBody.Decoded atTheCap = decode(new CapturedBody(cutMidFrame, CONVERSE.length), EVENT_STREAM);
        assertThat(atTheCap.value().textValue()).isEqualTo(twoEvents);
        assertThat(atTheCap.partial()).isTrue();

        RecordedBody.Decoded endedEarly = decode(cutMidFrame);
        assertThat(endedEarly.value().textValue()).as("a whole body that ends inside a frame").isEqualTo(twoEvents);
        assertThat(endedEarly.partial()).isTrue();

        RecordedBody.Decoded cutInAPrelude = decode(Arrays.copyOf(CONVERSE, secondEnds + 5));
        assertThat(cutInAPrelude.value().textValue()).isEqualTo(twoEvents);
        assertThat(cutInAPrelude.partial()).isTrue();

        RecordedBody.Decoded cutBetweenFrames = decode(new CapturedBody(Arrays.copyOf(CONVERSE, secondEnds),
                CONVERSE.length), EVENT_STREAM);
        assertThat(cutBetweenFrames.value().textValue()).isEqualTo(twoEvents);
        assertThat(cutBetweenFrames.partial()).as("the cap cut it, even between frames").isTrue();
    }

    @Test
    void shouldStopAtAMessageWhoseCrcDoesNotMatch() {
        byte[] first = event("messageStart", START);
        byte[] second = event("contentBlockDelta", DELTA_1);
        String one = "event: messageStart\ndata: " + START + "\n\n";

        byte[] badMessageCrc = stream(first, second, event("metadata", METADATA));
        badMessageCrc[first.length + second.length - 1] ^= 1;
        RecordedBody.Decoded decoded = decode(badMessageCrc);
        assertThat(decoded.value().textValue()).isEqualTo(one);
        assertThat(decoded.partial()).isTrue();

        byte[] badPayload = stream(first, second);
        badPayload[first.length + second.length - 10] ^= 1; // a payload byte: the message CRC no longer holds
        assertThat(decode(badPayload).value().textValue()).isEqualTo(one);

        byte[] badPrelude = stream(first, second);
        badPrelude[first.length + 3] ^= 1; // the total length: the prelude CRC no longer holds
        decoded = decode(badPrelude);
        assertThat(decoded.value().textValue()).isEqualTo(one);
        assertThat(decoded.partial()).isTrue();
    }

    @Test
    void shouldRecordBinaryThatIsNoEventStreamAsBinary() {
        byte[] noise = new byte[64];
        Arrays.fill(noise, (byte) 0xfe);
        assertThat(decode(noise).value().textValue()).isEqualTo("<64 bytes of binary content, not recorded>");
        assertThat(decode(noise).partial()).isFalse();

        String text = "upstream said no";
        assertThat(decode(text.getBytes(StandardCharsets.UTF_8)).value().textValue())
                .as("nothing decodes: recorded as it would be without the content type").isEqualTo(text);
    }

    @Test
    void shouldRecordAStreamWithAPayloadThatIsNotTextAsBinary() {
        byte[] body = stream(event("messageStart", START),
                message(new byte[] {(byte) 0xc3, 0x28}, header(":event-type", "audio"),
                        header(":message-type", "event")));
        assertThat(decode(body).value().textValue())
                .isEqualTo("<" + body.length + " bytes of binary content, not recorded>");
    }

    @Test
    void shouldDecideByTheContentTypeWhateverItsCaseAndParameters() {
        assertThat(decode(new CapturedBody(CONVERSE, CONVERSE.length), "Application/VND.Amazon.EventStream; x=1")
                .value().textValue()).isEqualTo(CONVERSE_SSE);
        assertThat(decode(new CapturedBody(CONVERSE, CONVERSE.length), "application/octet-stream").value().textValue())
                .startsWith("<");
        assertThat(decode(new CapturedBody(CONVERSE, CONVERSE.length), null).value().textValue()).startsWith("<");
    }

    @Test
    void shouldUndoAContentEncodingFirst() throws Exception {
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(CONVERSE);
        }
        assertThat(RecordedBody.decode(new CapturedBody(gz.toByteArray(), gz.size()), "gzip", EVENT_STREAM, 1 << 20)
                .value().textValue()).isEqualTo(CONVERSE_SSE);
    }
}
