package io.raglog.sink.elasticsearch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.schemas.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The newline-delimited JSON body of a {@code _bulk} request: an action line, then the document, per operation. */
final class BulkRequestBody {

    private static final byte[] ACTION_START = "{\"index\":{\"_index\":\"".getBytes(StandardCharsets.UTF_8);
    private static final byte[] ACTION_ID = "\",\"_id\":\"".getBytes(StandardCharsets.UTF_8);
    private static final byte[] ACTION_END = "\"}}\n".getBytes(StandardCharsets.UTF_8);

    private BulkRequestBody() {}

    static byte[] encode(List<BulkOperation> operations) {
        long size = 0;
        for (BulkOperation op : operations) {
            size += op.sizeInBytes();
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream((int) Math.min(Integer.MAX_VALUE - 8, size + 64));
        JsonStringEncoder quote = JsonStringEncoder.getInstance();
        for (BulkOperation op : operations) {
            out.writeBytes(ACTION_START);
            out.writeBytes(quote.quoteAsUTF8(op.index()));
            out.writeBytes(ACTION_ID);
            out.writeBytes(quote.quoteAsUTF8(op.id()));
            out.writeBytes(ACTION_END);
            out.writeBytes(op.document());
            out.write('\n');
        }
        return out.toByteArray();
    }

    /**
     * The document as one line: {@code _bulk} separates documents by newlines, so a pretty-printed document is
     * rewritten compactly (a raw newline in valid JSON is whitespace, never content, so nothing changes).
     */
    static byte[] singleLine(byte[] document, String index, String id) {
        for (byte b : document) {
            if (b == '\n' || b == '\r') {
                try {
                    JsonNode tree = Json.MAPPER.readTree(document);
                    return Json.MAPPER.writeValueAsBytes(tree);
                } catch (JsonProcessingException e) {
                    // The original message only: Jackson's location part quotes the document.
                    throw new IllegalArgumentException("document for _id [" + id + "] in [" + index
                            + "] is not valid JSON: " + e.getOriginalMessage());
                } catch (IOException e) {
                    throw new IllegalArgumentException("document for _id [" + id + "] in [" + index
                            + "] cannot be read: " + e.getClass().getSimpleName());
                }
            }
        }
        return document;
    }
}
