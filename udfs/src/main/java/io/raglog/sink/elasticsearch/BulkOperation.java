package io.raglog.sink.elasticsearch;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;

/**
 * One document to write: the {@code index} operation of a {@code _bulk} request, with its {@code _id}.
 *
 * <p>Always {@code index} (create or overwrite) with the caller's id, never an automatic one: a replay after a
 * failure writes the same ids again and overwrites, so the index never holds a document twice. This is also the
 * entry the sink buffers and checkpoints, so it carries the document as the exact bytes to send.
 *
 * <p>{@link #toString()} leaves the document out: it can hold a user's question and answer, and this object ends up
 * in log lines and exception messages.
 */
public final class BulkOperation implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Elasticsearch refuses longer ids (whole request, 400): checked here, where the id is still attributable. */
    static final int MAX_ID_BYTES = 512;
    static final int MAX_INDEX_BYTES = 255;

    private final String index;
    private final String id;
    private final byte[] document;

    private BulkOperation(String index, String id, byte[] document) {
        this.index = index;
        this.id = id;
        this.document = document;
    }

    /**
     * @param index the target index (or alias / data-stream-free index pattern name), lower case
     * @param id the document id, e.g. a run id: the same record always gets the same id
     * @param documentJson the document, one JSON object, UTF-8
     * @throws IllegalArgumentException naming what is wrong with the index, the id or the document
     */
    public static BulkOperation index(String index, String id, byte[] documentJson) {
        checkIndexName(index);
        checkId(id, index);
        Objects.requireNonNull(documentJson, () -> "document is null for _id [" + id + "] in [" + index + "]");
        if (documentJson.length == 0) {
            throw new IllegalArgumentException("document is empty for _id [" + id + "] in [" + index + "]");
        }
        return new BulkOperation(index, id, BulkRequestBody.singleLine(documentJson, index, id));
    }

    /** Rebuilds an operation from checkpointed state; it was validated when it was first made. */
    static BulkOperation restored(String index, String id, byte[] document) {
        return new BulkOperation(index, id, document);
    }

    public String index() {
        return index;
    }

    public String id() {
        return id;
    }

    /** The document's bytes as they are sent; callers must not modify the array. */
    public byte[] document() {
        return document;
    }

    /** What this operation adds to a bulk body: its action line, its document and two newlines (approximately). */
    long sizeInBytes() {
        return document.length + index.length() + id.length() + 34L;
    }

    private static void checkIndexName(String index) {
        if (index == null || index.isBlank()) {
            throw new IllegalArgumentException("index name is missing");
        }
        if (!index.equals(index.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException("index name [" + index + "] must be lower case");
        }
        if (index.startsWith("_") || index.startsWith("-") || index.startsWith("+") || ".".equals(index)
                || "..".equals(index)) {
            throw new IllegalArgumentException("index name [" + index + "] must not start with _, - or +");
        }
        for (char c : index.toCharArray()) {
            if ("\\/*?\"<>| ,#:".indexOf(c) >= 0) {
                throw new IllegalArgumentException("index name [" + index + "] must not contain '" + c + "'");
            }
        }
        if (index.getBytes(StandardCharsets.UTF_8).length > MAX_INDEX_BYTES) {
            throw new IllegalArgumentException("index name [" + index + "] is longer than " + MAX_INDEX_BYTES
                    + " bytes");
        }
    }

    private static void checkId(String id, String index) {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("document id is missing for a document of [" + index + "]");
        }
        if (id.getBytes(StandardCharsets.UTF_8).length > MAX_ID_BYTES) {
            throw new IllegalArgumentException("document id for [" + index + "] is longer than " + MAX_ID_BYTES
                    + " bytes: " + id.substring(0, 40) + "...");
        }
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BulkOperation)) {
            return false;
        }
        BulkOperation other = (BulkOperation) o;
        return index.equals(other.index) && id.equals(other.id) && Arrays.equals(document, other.document);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * index.hashCode() + id.hashCode()) + Arrays.hashCode(document);
    }

    @Override
    public String toString() {
        return "index [" + index + "] _id [" + id + "] (" + document.length + " bytes)";
    }
}
