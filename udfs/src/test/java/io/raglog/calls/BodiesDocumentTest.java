package io.raglog.calls;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.smile.databind.SmileMapper;
import io.raglog.ingest.CallEventDecoder;
import io.raglog.ingest.JsonTrees;
import io.raglog.schemas.CallEvent;
import io.raglog.schemas.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link BodiesDocument} must write the bytes {@code writeValue(out, new JsonNode[] {request, response})} writes: for
 * the recorded calls' bodies as decoding reads them, for random trees (as decoded, and as built node by node) and for
 * the edge cases (nulls, empty objects and arrays, null fields, vectors, repeated names), with the job's configuration
 * and with ones that filter or sort what a tree writes.
 */
class BodiesDocumentTest {

    private static final SmileMapper SMILE = Json.configure(SmileMapper.builder());
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private static void assertSameBytes(SmileMapper mapper, JsonNode request, JsonNode response) throws IOException {
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        mapper.writeValue(expected, new JsonNode[] {request, response});
        ByteArrayOutputStream actual = new ByteArrayOutputStream();
        BodiesDocument.write(mapper, actual, request, response);
        assertThat(actual.toByteArray()).as("%s / %s", request, response).isEqualTo(expected.toByteArray());
    }

    private static void assertSameBytes(JsonNode request, JsonNode response) throws IOException {
        assertSameBytes(SMILE, request, response);
    }

    @Test
    void shouldWriteTheRecordedCallsAsWriteValue() throws IOException {
        List<Path> fixtures = RecordedCalls.files();
        for (Path fixture : fixtures) {
            JsonNode call = JsonTrees.read(Files.readAllBytes(fixture));
            JsonNode request = call.path("request").get("body");
            JsonNode response = call.path("response").get("body");
            assertSameBytes(request, response);
            assertSameBytes(call, null);
            assertSameBytes(null, Json.MAPPER.readTree(Files.readAllBytes(fixture)));
        }
    }

    /**
     * A hinted call's bodies held as trees are written into a record, by either mapper, as the bytes they make would
     * be (what {@code HeldBodies.of} held before), and are equal to them.
     */
    @Test
    void shouldWriteHeldBodiesAsTheDocumentTheyMake() throws IOException {
        SmileMapper records = Json.configure(SmileMapper.builder()
                .disable(com.fasterxml.jackson.dataformat.smile.SmileGenerator.Feature.ENCODE_BINARY_AS_7BIT));
        List<Path> fixtures = RecordedCalls.files();
        for (Path fixture : fixtures) {
            CallEventDecoder.Decoded decoded = CallEventDecoder.decode(Files.readAllBytes(fixture));
            assertThat(decoded.ok()).as(fixture.toString()).isTrue();
            CallEvent event = decoded.event();
            HeldBodies held = HeldBodies.of(event);
            HeldBodies asBytes = new HeldBodies(SMILE.writeValueAsBytes(
                    new JsonNode[] {event.request().body(), event.response().body()}));
            assertThat(held).isEqualTo(asBytes).hasSameHashCodeAs(asBytes);
            assertThat(held.smile()).isEqualTo(asBytes.smile());
            assertThat(records.writeValueAsBytes(held)).isEqualTo(records.writeValueAsBytes(asBytes));
            assertThat(Json.MAPPER.writeValueAsString(held)).isEqualTo(Json.MAPPER.writeValueAsString(asBytes));
            assertThat(held.restoredTo(event.withoutBodies())).isEqualTo(asBytes.restoredTo(event.withoutBodies()));
        }
    }

    @Test
    void shouldWriteRandomTreesAsWriteValue() throws IOException {
        Random random = new Random(27);
        for (int i = 0; i < 400; i++) {
            JsonNode built = tree(random, 0);
            JsonNode decoded = JsonTrees.read(Json.MAPPER.writeValueAsBytes(
                    NODES.objectNode().set("body", built)));
            assertSameBytes(built, decoded);
            assertSameBytes(decoded.get("body"), random.nextBoolean() ? null : tree(random, 2));
        }
    }

    @Test
    void shouldWriteEdgeCasesAsWriteValue() throws IOException {
        assertSameBytes(null, null);
        assertSameBytes(NODES.objectNode(), NODES.arrayNode());
        assertSameBytes(NODES.nullNode(), NODES.textNode(""));
        ObjectNode nulls = NODES.objectNode();
        nulls.putNull("a");
        nulls.putArray("empty");
        nulls.putObject("none");
        nulls.set("nested", NODES.arrayNode().add(NODES.arrayNode()).add(NODES.objectNode()).addNull());
        assertSameBytes(nulls, nulls);
        byte[] vectors = ("{\"data\":[{\"embedding\":" + floats(20) + "},{\"embedding\":[" + floats(16) + ","
                + floats(3) + "]}],\"x\":" + floats(300) + ",\"x2\":{\"x\":1,\"x\":2}}")
                .getBytes(StandardCharsets.UTF_8);
        assertSameBytes(JsonTrees.read(vectors), JsonTrees.read(vectors).deepCopy());
        ObjectNode many = NODES.objectNode();
        for (int i = 0; i < 200; i++) {
            many.put("field" + i % 97 + "_" + i, i);
        }
        assertSameBytes(many, JsonTrees.read(Json.MAPPER.writeValueAsBytes(many)));
    }

    @Test
    void shouldLeaveFilteringAndSortingConfigurationsToWriteValue() throws IOException {
        ObjectNode tree = (ObjectNode) JsonTrees.read(
                "{\"b\":null,\"a\":[],\"c\":{\"z\":null,\"y\":[]}}".getBytes(StandardCharsets.UTF_8));
        for (SmileMapper mapper : List.of(
                Json.configure(SmileMapper.builder().disable(JsonNodeFeature.WRITE_NULL_PROPERTIES)),
                Json.configure(SmileMapper.builder().enable(JsonNodeFeature.WRITE_PROPERTIES_SORTED)),
                Json.configure(SmileMapper.builder().disable(SerializationFeature.WRITE_EMPTY_JSON_ARRAYS)))) {
            assertThat(BodiesDocument.writesAsBelow(mapper.getSerializationConfig())).isFalse();
            assertSameBytes(mapper, tree, tree.deepCopy());
        }
        assertThat(BodiesDocument.writesAsBelow(SMILE.getSerializationConfig())).isTrue();
    }

    /** A tree of every node kind decoding and building make, names repeating across objects. */
    static JsonNode tree(Random r, int depth) {
        int kind = depth > 4 ? 2 + r.nextInt(8) : r.nextInt(10);
        switch (kind) {
            case 0: {
                ObjectNode o = NODES.objectNode();
                int n = r.nextInt(r.nextInt(5) == 0 ? 20 : 6);
                for (int i = 0; i < n; i++) {
                    o.set("k" + r.nextInt(12), tree(r, depth + 1));
                }
                return o;
            }
            case 1: {
                ArrayNode a = NODES.arrayNode();
                int n = r.nextInt(r.nextInt(4) == 0 ? 40 : 5);
                boolean vector = r.nextBoolean();
                for (int i = 0; i < n; i++) {
                    a.add(vector ? NODES.numberNode(r.nextGaussian()) : tree(r, depth + 1));
                }
                return a;
            }
            case 2:
                return NODES.textNode(r.nextInt(5) == 0 ? "" : "t\u00e9xt \u2014 " + r.nextInt(1000));
            case 3:
                return NODES.numberNode(r.nextInt());
            case 4:
                return NODES.numberNode(r.nextLong());
            case 5:
                return NODES.numberNode(r.nextDouble() * 1e6);
            case 6:
                return NODES.numberNode(new BigInteger(100, r));
            case 7:
                return NODES.numberNode(new BigDecimal(r.nextDouble()));
            case 8:
                return NODES.booleanNode(r.nextBoolean());
            default:
                return NODES.nullNode();
        }
    }

    private static String floats(int n) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : ",").append(0.001 * i - 0.25);
        }
        return sb.append(']').toString();
    }
}
