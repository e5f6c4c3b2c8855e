package io.raglog.calls.adapters;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.calls.AdapterException;
import io.raglog.ingest.DoubleArrayNode;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;

/**
 * Decodes embedding vectors. The official OpenAI SDKs ask for {@code encoding_format: base64} unless told
 * otherwise, and the reply's {@code embedding} is then a base64 string of little-endian float32 values, not an array.
 */
public final class Vectors {

    private Vectors() {}

    /** An array of numbers or a base64 float32 string, whichever the reply carried. */
    public static float[] decode(JsonNode node, String what) throws AdapterException {
        if (node == null || node.isNull() || node.isMissingNode()) {
            throw new AdapterException(what + " is missing");
        }
        if (node.isTextual()) {
            return fromBase64(node.textValue(), what);
        }
        if (node.isArray()) {
            return fromArray(node, what);
        }
        throw new AdapterException(what + " is " + Bodies.describe(node) + ", expected numbers or base64");
    }

    public static float[] fromArray(JsonNode array, String what) throws AdapterException {
        if (array instanceof DoubleArrayNode packed && packed.doubles() != null) {
            return fromDoubles(packed.doubles());
        }
        float[] v = new float[array.size()];
        for (int i = 0; i < v.length; i++) {
            JsonNode x = array.get(i);
            if (!x.isNumber()) {
                throw new AdapterException(what + "[" + i + "] is " + Bodies.describe(x) + ", expected a number");
            }
            v[i] = x.floatValue();
        }
        return v;
    }

    /**
     * A parsed vector's doubles as floats: each {@code (float) d}, what {@code DoubleNode.floatValue()} gives, with no
     * node made per element (issue #27).
     */
    private static float[] fromDoubles(double[] doubles) {
        float[] v = new float[doubles.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) doubles[i];
        }
        return v;
    }

    public static float[] fromBase64(String base64, String what) throws AdapterException {
        float[] direct = Base64Floats.decode(base64);
        if (direct != null) {
            return direct;
        }
        // anything irregular (white space, a bad character or ending, a length not of whole floats): the JDK's
        // decoder, for the same result or the same message as ever
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64.strip());
        } catch (IllegalArgumentException e) {
            throw new AdapterException(what + " is not valid base64: " + e.getMessage());
        }
        if (bytes.length % Float.BYTES != 0) {
            throw new AdapterException(what + " decodes to " + bytes.length + " bytes, not a whole number of float32");
        }
        float[] v = new float[bytes.length / Float.BYTES];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
        return v;
    }

    /** The inverse of {@link #fromBase64}, for producers and tests. */
    public static String toBase64(float[] v) {
        ByteBuffer buf = ByteBuffer.allocate(v.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        buf.asFloatBuffer().put(v);
        return Base64.getEncoder().encodeToString(buf.array());
    }
}
