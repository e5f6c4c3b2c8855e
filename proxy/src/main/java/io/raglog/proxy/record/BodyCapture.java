package io.raglog.proxy.record;

import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * A copy of a body as it streams past, kept up to a cap: the call itself always passes through whole, only the
 * recording stops growing. Used from one event loop thread only.
 */
public final class BodyCapture {

    private final int cap;
    private byte[] bytes = new byte[0];
    private int kept;
    private long total;

    public BodyCapture(int cap) {
        if (cap < 0) {
            throw new IllegalArgumentException("cap must be >= 0, was " + cap);
        }
        this.cap = cap;
    }

    /** Copies what still fits of the readable bytes, without moving the buffer's reader index. */
    public void append(ByteBuf content) {
        int readable = content.readableBytes();
        total += readable;
        int take = Math.min(readable, cap - kept);
        if (take <= 0) {
            return;
        }
        if (kept + take > bytes.length) {
            // Grow geometrically but never past the cap: a 4 MiB cap must not mean 4 MiB per small request.
            bytes = Arrays.copyOf(bytes, (int) Math.min(cap, Math.max(kept + take, Math.max(256L, 2L * bytes.length))));
        }
        content.getBytes(content.readerIndex(), bytes, kept, take);
        kept += take;
    }

    /** The bytes kept, at most the cap. */
    public byte[] kept() {
        return kept == bytes.length ? bytes : Arrays.copyOf(bytes, kept);
    }

    /** Every byte that passed, kept or not. */
    public long total() {
        return total;
    }

    public boolean truncated() {
        return total > kept;
    }
}
