package io.raglog.calls;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.raglog.ingest.DoubleArrayNode;
import java.util.function.BiConsumer;

/**
 * A 64-bit digest of a request body, so that assembly can tell a retry (the same request sent again) without holding
 * the body. Equal bodies ({@link JsonNode#equals}: an object's fields in any order) give equal digests; different
 * bodies give different ones except by chance. Each string counts by its length and its {@link String#hashCode},
 * which the JVM keeps once computed, so two bodies that differ only in strings of one length and one 32-bit hash
 * collide: by accident about once in four billion such pairs, and a collision only joins a failed call to a run whose
 * request was otherwise alike.
 */
public final class RequestDigest {

    /** The digest of no body: a call without one is a retry of another without one, as {@code Objects.equals} says. */
    public static final long NONE = 0L;

    private static final long OBJECT = 0x9E3779B97F4A7C15L;
    private static final long ARRAY = 0xC2B2AE3D27D4EB4FL;

    private RequestDigest() {}

    public static long of(JsonNode body) {
        return body == null ? NONE : node(body) | 1L; // never NONE: a body is not the absence of one
    }

    private static long node(JsonNode n) {
        switch (n.getNodeType()) {
            case OBJECT: { // only an ObjectNode is of this type
                FieldSum fields = new FieldSum();
                ((ObjectNode) n).forEachEntry(fields);
                return mix(fields.sum);
            }
            case ARRAY: {
                long h = ARRAY + n.size();
                if (n instanceof DoubleArrayNode vector && vector.doubles() != null) {
                    // what each element's DoubleNode gives, without making one: a vector's nodes made here were 4.5 %
                    // of what raglog's own threads allocated per run (JFR, issue #27)
                    for (double v : vector.doubles()) {
                        h = mix(h * 31 + ofDouble(v));
                    }
                    return h;
                }
                for (JsonNode element : n) {
                    h = mix(h * 31 + node(element));
                }
                return h;
            }
            case STRING:
                return text(n.textValue());
            case NUMBER:
                return n.isIntegralNumber() && n.canConvertToLong()
                        ? mix(n.longValue() + 3)
                        : ofDouble(n.doubleValue());
            case BOOLEAN:
                return n.booleanValue() ? 7 : 11;
            case NULL:
                return 13;
            default: // binary, POJO: not in a body read from JSON; their own hash is all there is
                return mix(n.hashCode() + 17L);
        }
    }

    /**
     * An object's fields summed, so their order does not count, as it does not for ObjectNode's equality: walked by
     * {@code forEachEntry}, without the entry object per field a decoded tree's map makes as its entry set is iterated.
     */
    private static final class FieldSum implements BiConsumer<String, JsonNode> {
        long sum = OBJECT;

        @Override
        public void accept(String name, JsonNode value) {
            sum += mix(text(name) * 31 + node(value));
        }
    }

    private static long ofDouble(double v) {
        return mix(Double.doubleToLongBits(v) + 5);
    }

    private static long text(String s) {
        return mix(((long) s.hashCode() << 32) ^ s.length());
    }

    /** The finalizer of SplitMix64: every input bit moves about half the output bits. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
