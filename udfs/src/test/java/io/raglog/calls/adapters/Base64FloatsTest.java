package io.raglog.calls.adapters;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The direct reading agrees with the JDK's decoder and a little-endian FloatBuffer, or leaves the text to them. */
class Base64FloatsTest {

    @Test
    void shouldReadEveryVectorAsTheJdkDoes() {
        Random random = new Random(27);
        for (int round = 0; round < 2_000; round++) {
            float[] v = new float[random.nextInt(40)];
            for (int i = 0; i < v.length; i++) {
                v[i] = switch (random.nextInt(5)) {
                    case 0 -> Float.intBitsToFloat(random.nextInt()); // NaNs with payloads, infinities, subnormals
                    case 1 -> -0.0f;
                    default -> (float) random.nextGaussian();
                };
            }
            String text = Vectors.toBase64(v);
            float[] direct = Base64Floats.decode(text);
            if (v.length == 0) {
                assertThat(direct).isNull(); // "" is the JDK's to read
                continue;
            }
            assertThat(bits(direct)).as(text).isEqualTo(bits(jdk(text)));
        }
    }

    @Test
    void shouldLeaveAnythingIrregularToTheJdk() {
        Random random = new Random(4);
        String chars = "AB+/=az09 \n-_\u00e9";
        int read = 0;
        int left = 0;
        for (int round = 0; round < 20_000; round++) {
            float[] v = new float[1 + random.nextInt(6)];
            for (int i = 0; i < v.length; i++) {
                v[i] = (float) random.nextGaussian();
            }
            // a vector's text with one character replaced, added or taken out
            StringBuilder text = new StringBuilder(Vectors.toBase64(v));
            int at = random.nextInt(text.length());
            char c = chars.charAt(random.nextInt(chars.length()));
            switch (random.nextInt(3)) {
                case 0 -> text.setCharAt(at, c);
                case 1 -> text.insert(at, c);
                default -> text.deleteCharAt(at);
            }
            float[] direct = Base64Floats.decode(text.toString());
            if (direct == null) {
                left++;
            } else {
                read++;
                assertThat(bits(direct)).as(text.toString()).isEqualTo(bits(jdk(text.toString())));
            }
        }
        assertThat(read).as("texts the direct reading took").isPositive();
        assertThat(left).as("texts left to the JDK").isPositive();
    }

    @Test
    void shouldLeavePaddedEndingsWithSpareBitsAndPartFloatsToTheJdk() {
        assertThat(Base64Floats.decode("AACAPwAAIMA=")).containsExactly(1.0f, -2.5f);
        assertThat(Base64Floats.decode("AACAPwAAIME=")).containsExactly(1.0f, -10.0f);
        assertThat(Base64Floats.decode("AACAPwAAIMB=")).isNull(); // a set bit past the last byte
        assertThat(Base64Floats.decode("AACAPwAA")).isNull(); // 6 bytes: not whole floats
        assertThat(Base64Floats.decode("AACA PwAA")).isNull();
        assertThat(Base64Floats.decode("AACAPw==")).containsExactly(1.0f).isEqualTo(jdk("AACAPw=="));
    }

    private static float[] jdk(String text) {
        byte[] bytes = Base64.getDecoder().decode(text.strip());
        float[] v = new float[bytes.length / Float.BYTES];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
        return v;
    }

    private static int[] bits(float[] v) {
        int[] bits = new int[v.length];
        for (int i = 0; i < v.length; i++) {
            bits[i] = Float.floatToRawIntBits(v[i]);
        }
        return bits;
    }
}
