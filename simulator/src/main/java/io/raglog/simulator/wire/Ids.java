package io.raglog.simulator.wire;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.UUID;

/** Identifiers drawn from a run's random stream, in the formats the vendors use. */
public final class Ids {

    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final char[] BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();

    private Ids() {}

    public static String hex(SplittableRandom rng, int length) {
        char[] out = new char[length];
        for (int i = 0; i < length; i++) {
            out[i] = HEX[rng.nextInt(16)];
        }
        return new String(out);
    }

    public static String base62(SplittableRandom rng, int length) {
        char[] out = new char[length];
        for (int i = 0; i < length; i++) {
            out[i] = BASE62[rng.nextInt(62)];
        }
        return new String(out);
    }

    /** A version-4 UUID from the run's stream (not SecureRandom: the seed must replay it). */
    public static String uuid(SplittableRandom rng) {
        long hi = (rng.nextLong() & ~0xF000L) | 0x4000L;
        long lo = (rng.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(hi, lo).toString();
    }

    /** Qdrant point ids must be integers or UUIDs: a name-based UUID of the chunk id keeps them stable. */
    public static String pointId(String collection, String chunkId) {
        return UUID.nameUUIDFromBytes((collection + "/" + chunkId).getBytes(StandardCharsets.UTF_8)).toString();
    }
}
