package io.raglog.schemas;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * A growable byte buffer a thread keeps from one document to the next, without a {@code ByteArrayOutputStream}'s
 * locks: the job writes and reads every run, verdict and LLM request through one, where {@code writeValueAsBytes}
 * grew a fresh buffer in chunks for each and copied it out (issue #27). One that grew past {@link #KEPT} for an unusual
 * document is let go at {@link #release()}, so a thread holds at most that much between documents. Not thread-safe.
 */
public final class ReusedBytes extends OutputStream {

    /** The most a buffer keeps between documents. */
    public static final int KEPT = 1 << 20;
    private static final int INITIAL = 32 * 1024;

    private byte[] bytes = new byte[INITIAL];
    private int size;

    /** Bytes written since the last release. */
    public int size() {
        return size;
    }

    /** The backing array: its first {@link #size()} bytes are what was written. */
    public byte[] bytes() {
        return bytes;
    }

    /** The backing array, at least {@code length} long, to read a document into (its contents are not kept). */
    public byte[] holding(int length) {
        if (bytes.length < length) {
            bytes = new byte[length];
        }
        return bytes;
    }

    /** A copy of what was written. */
    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    /** Empties the buffer for the next document, and lets go of an array grown past {@link #KEPT}. */
    public void release() {
        if (bytes.length > KEPT) {
            bytes = new byte[INITIAL];
        }
        size = 0;
    }

    @Override
    public void write(int b) {
        ensure(size + 1);
        bytes[size++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) {
        ensure(size + len);
        System.arraycopy(b, off, bytes, size, len);
        size += len;
    }

    private void ensure(int capacity) {
        if (capacity > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(capacity, bytes.length * 2));
        }
    }
}
