package io.raglog.calls;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.raglog.ingest.DoubleArrayNode;
import io.raglog.ingest.JsonTrees;
import io.raglog.schemas.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link RequestDigest} walks an object's fields with {@code forEachEntry} rather than its entry set: the digests must
 * be those the entry-set walk gave ({@link #digestAsBefore}), for the recorded calls' bodies and for random trees, as
 * decoding reads them and as built node by node.
 */
class RequestDigestTest {

    @Test
    void shouldDigestTheRecordedCallsAsBefore() throws IOException {
        List<Path> fixtures = RecordedCalls.files();
        for (Path fixture : fixtures) {
            byte[] json = Files.readAllBytes(fixture);
            for (JsonNode call : List.of(JsonTrees.read(json), Json.MAPPER.readTree(json))) {
                assertSameDigest(call);
                assertSameDigest(call.path("request").get("body"));
            }
        }
    }

    @Test
    void shouldDigestRandomTreesAsBefore() throws IOException {
        Random random = new Random(64);
        for (int i = 0; i < 500; i++) {
            JsonNode built = BodiesDocumentTest.tree(random, 0);
            assertSameDigest(built);
            JsonNode decoded = JsonTrees.read(Json.MAPPER.writeValueAsBytes(
                    Json.MAPPER.createObjectNode().set("body", built)));
            assertSameDigest(decoded);
            assertThat(RequestDigest.of(decoded.get("body"))).isEqualTo(RequestDigest.of(built));
        }
    }

    private static void assertSameDigest(JsonNode body) {
        assertThat(RequestDigest.of(body)).as("%s", body).isEqualTo(body == null ? 0L : digestAsBefore(body) | 1L);
    }

    /** The digest as it was computed before, an object's fields through its entry set. */
    private static long digestAsBefore(JsonNode n) {
        switch (n.getNodeType()) {
            case OBJECT: {
                long sum = 0x9E3779B97F4A7C15L;
                for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> f = it.next();
                    sum += mix(text(f.getKey()) * 31 + digestAsBefore(f.getValue()));
                }
                return mix(sum);
            }
            case ARRAY: {
                long h = 0xC2B2AE3D27D4EB4FL + n.size();
                if (n instanceof DoubleArrayNode vector && vector.doubles() != null) {
                    for (double v : vector.doubles()) {
                        h = mix(h * 31 + mix(Double.doubleToLongBits(v) + 5));
                    }
                    return h;
                }
                for (JsonNode element : n) {
                    h = mix(h * 31 + digestAsBefore(element));
                }
                return h;
            }
            case STRING:
                return text(n.textValue());
            case NUMBER:
                return n.isIntegralNumber() && n.canConvertToLong()
                        ? mix(n.longValue() + 3)
                        : mix(Double.doubleToLongBits(n.doubleValue()) + 5);
            case BOOLEAN:
                return n.booleanValue() ? 7 : 11;
            case NULL:
                return 13;
            default:
                return mix(n.hashCode() + 17L);
        }
    }

    private static long text(String s) {
        return mix(((long) s.hashCode() << 32) ^ s.length());
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
