package io.raglog.proxy.record;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.DeflaterOutputStream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class RecordedBodyTest {

    private static CapturedBody whole(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        return new CapturedBody(b, b.length);
    }

    private static JsonNode decode(CapturedBody body, String encoding) {
        return RecordedBody.decode(body, encoding, null, 1 << 20).value();
    }

    @Test
    void shouldRecordAJsonBodyAsItsJsonValue() throws Exception {
        assertThat(decode(whole("{\"model\":\"gpt-4o\",\"n\":1}"), null))
                .isEqualTo(Json.MAPPER.readTree("{\"model\":\"gpt-4o\",\"n\":1}"));
        assertThat(decode(whole("[1,2,3]"), "identity").isArray()).isTrue();
    }

    @Test
    void shouldRecordAnEventStreamAsItsRawText() {
        String sse = "data: {\"choices\":[]}\n\ndata: [DONE]\n\n";
        assertThat(decode(whole(sse), null).textValue()).isEqualTo(sse);
    }

    @Test
    void shouldRecordNdjsonAsTextNotAsItsFirstLine() {
        String ndjson = "{\"index\":{\"_id\":\"1\"}}\n{\"text\":\"a\"}\n";
        assertThat(decode(whole(ndjson), null).textValue()).isEqualTo(ndjson);
    }

    @Test
    void shouldRecordNoBodyAsNull() {
        assertThat(decode(CapturedBody.EMPTY, null)).isNull();
    }

    @Test
    void shouldUndoGzipAndDeflate() throws Exception {
        String json = "{\"object\":\"list\",\"data\":[]}";
        ByteArrayOutputStream gz = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(gz)) {
            out.write(json.getBytes(StandardCharsets.UTF_8));
        }
        ByteArrayOutputStream zlib = new ByteArrayOutputStream();
        try (DeflaterOutputStream out = new DeflaterOutputStream(zlib)) {
            out.write(json.getBytes(StandardCharsets.UTF_8));
        }
        assertThat(decode(new CapturedBody(gz.toByteArray(), gz.size()), "gzip"))
                .isEqualTo(Json.MAPPER.readTree(json));
        assertThat(decode(new CapturedBody(zlib.toByteArray(), zlib.size()), "deflate"))
                .isEqualTo(Json.MAPPER.readTree(json));
    }

    @Test
    void shouldSayWhatItCouldNotDecodeRatherThanRecordGarbage() {
        assertThat(decode(new CapturedBody(new byte[] {1, 2, 3}, 3), "br").textValue())
                .isEqualTo("<3 bytes with content-encoding br, not decoded>");
        assertThat(decode(new CapturedBody(new byte[] {(byte) 0xff, (byte) 0xfe, 0, 1}, 4), null).textValue())
                .isEqualTo("<4 bytes of binary content, not recorded>");
    }

    @Test
    void shouldRecordTheStartOfACutBodyAsTextAndSaySo() {
        byte[] full = "{\"input\":[\"ünïcödé passage\"]}".getBytes(StandardCharsets.UTF_8);
        byte[] cut = Arrays.copyOf(full, 13); // cuts inside a two-byte character
        RecordedBody.Decoded decoded = RecordedBody.decode(new CapturedBody(cut, full.length), null, null,
                1 << 20);
        assertThat(decoded.partial()).isTrue();
        assertThat(decoded.value().textValue()).startsWith("{\"input\":[\"");
    }
}
