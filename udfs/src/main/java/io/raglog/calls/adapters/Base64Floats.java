package io.raglog.calls.adapters;

/**
 * Little-endian float32 values straight from their base64 text, as {@code Base64.getDecoder()} and a little-endian
 * {@code FloatBuffer} read them, without the two byte arrays between: the decoder first copies the string into
 * Latin-1 bytes and then decodes those into a third array. A reply from the OpenAI SDKs carries each vector so (1,536
 * floats: 8 KB of text), and decoding calls is where a third of raglog's own allocation happens (JFR, issue #27).
 */
final class Base64Floats {

    private static final byte[] SEXTETS = new byte[128];

    static {
        java.util.Arrays.fill(SEXTETS, (byte) -1);
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        for (int i = 0; i < alphabet.length(); i++) {
            SEXTETS[alphabet.charAt(i)] = (byte) i;
        }
    }

    private Base64Floats() {}

    /**
     * The floats of {@code text}, or null where this reading is not sure to agree with the JDK's: a character outside
     * the basic alphabet (white space included), padding anywhere but as the text's last one or two characters of a
     * whole four-character unit, a length that is not a multiple of four, or bytes that are not whole floats. The
     * caller then reads it the JDK's way, which gives the same floats or the message it always gave.
     */
    static float[] decode(String text) {
        int n = text.length();
        if (n == 0 || n % 4 != 0) {
            return null;
        }
        int padding = text.charAt(n - 1) != '=' ? 0 : text.charAt(n - 2) != '=' ? 1 : 2;
        int bytes = n / 4 * 3 - padding;
        if (bytes % Float.BYTES != 0) {
            return null;
        }
        float[] floats = new float[bytes / Float.BYTES];
        int bits = 0; // the float being gathered, its bytes in from the low end
        int have = 0; // bytes of it gathered
        int out = 0;
        int data = n - padding;
        for (int i = 0; i < data; i += 4) {
            int unit = 0;
            int chars = Math.min(4, data - i);
            for (int k = 0; k < chars; k++) {
                char c = text.charAt(i + k);
                int sextet = c < 128 ? SEXTETS[c] : -1;
                if (sextet < 0) {
                    return null;
                }
                unit = unit << 6 | sextet;
            }
            int unitBytes = chars - 1; // 4 characters: 3 bytes; a padded last unit of 3 or 2: 2 or 1
            if (chars < 4) {
                int spare = 6 * chars - 8 * unitBytes;
                if ((unit & ((1 << spare) - 1)) != 0) {
                    return null; // bits past the last byte: the JDK reads them as zero; leave it the JDK's say
                }
                unit >>>= spare;
            }
            for (int b = unitBytes - 1; b >= 0; b--) {
                bits |= ((unit >>> (8 * b)) & 0xFF) << (8 * have);
                if (++have == Float.BYTES) {
                    floats[out++] = Float.intBitsToFloat(bits);
                    bits = 0;
                    have = 0;
                }
            }
        }
        return floats;
    }
}
