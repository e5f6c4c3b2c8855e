package io.raglog.proxy.record;

/**
 * One body as the proxy saw it pass: the bytes kept (at most the recording cap) and how many passed in all.
 *
 * @param bytes the first bytes of the body, as sent on the wire (still content-encoded)
 * @param totalBytes every byte that passed through
 */
public record CapturedBody(byte[] bytes, long totalBytes) {

    public static final CapturedBody EMPTY = new CapturedBody(new byte[0], 0);

    public static CapturedBody of(BodyCapture capture) {
        return capture.total() == 0 ? EMPTY : new CapturedBody(capture.kept(), capture.total());
    }

    public boolean truncated() {
        return totalBytes > bytes.length;
    }

    public boolean isEmpty() {
        return totalBytes == 0;
    }
}
