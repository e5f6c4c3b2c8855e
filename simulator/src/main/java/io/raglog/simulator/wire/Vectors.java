package io.raglog.simulator.wire;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;

/** Embedding vectors as OpenAI's base64 encoding sends them: little-endian float32, base64. */
public final class Vectors {

    private Vectors() {}

    public static String base64(float[] vector) {
        ByteBuffer buffer = ByteBuffer.allocate(vector.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : vector) {
            buffer.putFloat(v);
        }
        return Base64.getEncoder().encodeToString(buffer.array());
    }

    public static float[] fromBase64(String encoded) {
        ByteBuffer buffer = ByteBuffer.wrap(Base64.getDecoder().decode(encoded)).order(ByteOrder.LITTLE_ENDIAN);
        float[] out = new float[buffer.remaining() / 4];
        for (int i = 0; i < out.length; i++) {
            out[i] = buffer.getFloat();
        }
        return out;
    }
}
