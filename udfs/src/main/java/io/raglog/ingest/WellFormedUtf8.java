package io.raglog.ingest;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Whether bytes are well-formed UTF-8 (the Unicode standard's table 3-7), which is what the JDK's UTF-8 decoder
 * refuses nothing of when it reports malformed input: no stray continuation byte, no overlong form (C0, C1, E0 80-9F,
 * F0 80-8F), no encoded surrogate (ED A0-BF), nothing above U+10FFFF (F4 90-BF, F5-FF), no sequence cut short by the
 * end. Checked without decoding: every non-ASCII call was decoded into a scratch char buffer only to learn whether the
 * decoder refused a byte (the decoder and the byte-by-byte ASCII scan before it were 4.8 % of the CPU samples of a JFR
 * of {@code HandOverBenchmarks.decodeClassifyAndWriteCall}'s fork). ASCII runs are skipped eight bytes at a time. Over
 * the 714 payloads of {@code SimulatedTraffic.generate(200, 7)} (4.2 MB, 200 passes, six rounds alternated, under the
 * bench lock) the decoder took 0.59 to 0.86 ns a byte, this 0.09 to 0.17. {@code DeadLettersTest} holds it to the
 * strict decoder on random and broken text.
 */
final class WellFormedUtf8 {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    /** A high bit in any of a long's eight bytes: one of them is not ASCII. */
    private static final long HIGH_BITS = 0x8080808080808080L;

    private WellFormedUtf8() {}

    static boolean check(byte[] bytes) {
        int n = bytes.length;
        int i = 0;
        while (i < n) {
            while (i + Long.BYTES <= n && ((long) LONGS.get(bytes, i) & HIGH_BITS) == 0) {
                i += Long.BYTES;
            }
            while (i < n && bytes[i] >= 0) {
                i++;
            }
            if (i < n) {
                i = afterSequence(bytes, i);
                if (i < 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Where the multi-byte sequence that starts at {@code at} ends, or -1 when it is not well formed. */
    private static int afterSequence(byte[] bytes, int at) {
        int lead = bytes[at] & 0xFF;
        int length;
        int secondMin = 0x80;
        int secondMax = 0xBF;
        if (lead < 0xC2) {
            return -1; // a continuation byte, or an overlong two-byte form
        } else if (lead < 0xE0) {
            length = 2;
        } else if (lead < 0xF0) {
            length = 3;
            secondMin = lead == 0xE0 ? 0xA0 : 0x80; // E0 80-9F is overlong
            secondMax = lead == 0xED ? 0x9F : 0xBF; // ED A0-BF encodes a surrogate
        } else if (lead < 0xF5) {
            length = 4;
            secondMin = lead == 0xF0 ? 0x90 : 0x80; // F0 80-8F is overlong
            secondMax = lead == 0xF4 ? 0x8F : 0xBF; // F4 90-BF is above U+10FFFF
        } else {
            return -1;
        }
        if (at + length > bytes.length) {
            return -1;
        }
        int second = bytes[at + 1] & 0xFF;
        if (second < secondMin || second > secondMax) {
            return -1;
        }
        for (int k = 2; k < length; k++) {
            if ((bytes[at + k] & 0xC0) != 0x80) {
                return -1;
            }
        }
        return at + length;
    }
}
