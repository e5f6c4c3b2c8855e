package io.raglog.proxy.record;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.TextNode;
import io.raglog.schemas.Json;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;
import java.util.zip.InflaterInputStream;

/**
 * Turns captured body bytes into the CallEvent's body value: the JSON value when the whole body is one JSON document,
 * else the text (a streamed reply's raw {@code text/event-stream}, NDJSON, a form); an AWS event stream (Bedrock's
 * streamed replies) as the SSE text of its messages ({@link AwsEventStream}). Content encodings the proxy lets
 * upstreams use (gzip, deflate) are undone first, so what is recorded is what the client's SDK read.
 */
public final class RecordedBody {

    /**
     * Trailing tokens fail the parse: an NDJSON body ({@code {...}\n{...}}) must be recorded as text, not as its
     * first line.
     */
    private static final ObjectReader STRICT = Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** The content codings the recorder can undo; the proxy narrows Accept-Encoding upstream to these. */
    public static boolean decodable(String coding) {
        String c = coding.strip().toLowerCase(Locale.ROOT);
        return c.equals("gzip") || c.equals("x-gzip") || c.equals("deflate") || c.equals("identity");
    }

    /** The outcome: the value to record, and whether it is only the start of the body. */
    public record Decoded(JsonNode value, boolean partial) {}

    private RecordedBody() {}

    /**
     * @param contentEncoding the body's {@code content-encoding}, null when none
     * @param contentType the body's {@code content-type}, null when none
     * @param maxDecodedBytes an inflated body is kept up to this many bytes too
     */
    public static Decoded decode(CapturedBody body, String contentEncoding, String contentType,
            int maxDecodedBytes) {
        if (body.isEmpty()) {
            return new Decoded(null, false);
        }
        byte[] bytes = body.bytes();
        boolean partial = body.truncated();
        if (contentEncoding != null && !contentEncoding.isBlank() && !"identity".equalsIgnoreCase(contentEncoding.strip())) {
            if (!decodable(contentEncoding)) {
                return new Decoded(TextNode.valueOf("<" + body.totalBytes() + " bytes with content-encoding "
                        + contentEncoding.strip() + ", not decoded>"), false);
            }
            Inflated inflated = inflate(bytes, contentEncoding.strip().toLowerCase(Locale.ROOT), maxDecodedBytes);
            bytes = inflated.bytes();
            partial = partial || inflated.partial();
        }
        if (AwsEventStream.is(contentType)) {
            try {
                AwsEventStream.Sse sse = AwsEventStream.toSse(bytes);
                if (sse != null) {
                    return new Decoded(TextNode.valueOf(sse.text()), partial || sse.partial());
                }
            } catch (CharacterCodingException binaryPayload) {
                return new Decoded(TextNode.valueOf(binaryPlaceholder(bytes)), partial);
            }
            // not one message decoded: recorded as any other body
        }
        if (!partial) {
            try {
                JsonNode tree = STRICT.readTree(bytes);
                if (tree != null && !tree.isMissingNode()) {
                    return new Decoded(tree, false);
                }
            } catch (IOException notOneJsonDocument) {
                // recorded as text below
            }
        }
        return new Decoded(TextNode.valueOf(text(bytes, partial)), partial);
    }

    private static String text(byte[] bytes, boolean partial) {
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes))
                    .toString();
        } catch (CharacterCodingException e) {
            if (partial) {
                // A cut can fall inside a multi-byte character; the text before it is still worth keeping.
                return new String(bytes, StandardCharsets.UTF_8);
            }
            return binaryPlaceholder(bytes);
        }
    }

    private static String binaryPlaceholder(byte[] bytes) {
        return "<" + bytes.length + " bytes of binary content, not recorded>";
    }

    private record Inflated(byte[] bytes, boolean partial) {}

    private static Inflated inflate(byte[] bytes, String coding, int max) {
        Inflated zlib = inflateWith(bytes, coding, false, max);
        if (zlib != null) {
            return zlib;
        }
        // "deflate" is specified as zlib-wrapped, but some servers send raw deflate.
        Inflated raw = coding.equals("deflate") ? inflateWith(bytes, coding, true, max) : null;
        return raw != null ? raw : new Inflated(new byte[0], true);
    }

    private static Inflated inflateWith(byte[] bytes, String coding, boolean rawDeflate, int max) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(max, Math.max(64, bytes.length * 4)));
        byte[] buffer = new byte[8192];
        try (InputStream in = coding.endsWith("gzip") ? new GZIPInputStream(new ByteArrayInputStream(bytes))
                : new InflaterInputStream(new ByteArrayInputStream(bytes), new Inflater(rawDeflate))) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                int take = Math.min(n, max - out.size());
                out.write(buffer, 0, take);
                if (take < n) {
                    return new Inflated(out.toByteArray(), true);
                }
            }
            return new Inflated(out.toByteArray(), false);
        } catch (IOException cutOrCorrupt) {
            // A body cut at the recording cap ends mid-stream: keep what inflated, if anything did.
            return out.size() > 0 ? new Inflated(out.toByteArray(), true) : null;
        }
    }
}
