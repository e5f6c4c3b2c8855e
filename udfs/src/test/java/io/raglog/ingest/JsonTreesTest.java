package io.raglog.ingest;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.smile.databind.SmileMapper;
import io.raglog.calls.AdapterException;
import io.raglog.calls.RecordedCalls;
import io.raglog.calls.adapters.Vectors;
import io.raglog.schemas.Json;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonTrees#read} must give what {@code Json.MAPPER.readTree} gives, or throw what it throws: the same tree
 * (equal both ways, same hash, same JSON and Smile bytes, same node types), the same exception and message, for the
 * recorded calls and for edge cases of numbers, arrays, nesting, duplicates, trailing tokens and broken JSON.
 * {@link JsonTreesSimulatedTest} (job module) does the same over the simulator's traffic.
 */
class JsonTreesTest {

    private static final SmileMapper SMILE = Json.configure(SmileMapper.builder());

    /** A way of reading a document into a tree. */
    @FunctionalInterface
    private interface TreeReading {
        JsonNode read(byte[] json) throws IOException;
    }

    private static final ObjectReader WHOLE = Json.MAPPER.reader().with(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

    /** Checks one document and says whether a packed vector was made anywhere in its tree. */
    static boolean assertSameAsReadTree(byte[] json) throws IOException {
        return assertSameAs(json, Json.MAPPER::readTree, JsonTrees::read)
                & assertSameAs(json, WHOLE::readTree, JsonTrees::readWhole);
    }

    /** {@code actualWay} reads {@code json} as {@code expectedWay} does: the same tree, or the same failure. */
    private static boolean assertSameAs(byte[] json, TreeReading expectedWay, TreeReading actualWay)
            throws IOException {
        JsonNode expected;
        try {
            expected = expectedWay.read(json);
        } catch (IOException e) {
            assertFailsAs(json, e, actualWay);
            return false;
        }
        JsonNode actual = actualWay.read(json);
        String what = new String(json, StandardCharsets.UTF_8);
        what = what.length() > 200 ? what.substring(0, 200) + "..." : what;
        assertThat(actual).as(what).isEqualTo(expected);
        assertThat(expected).as(what).isEqualTo(actual);
        assertThat(actual.hashCode()).as(what).isEqualTo(expected.hashCode());
        assertThat(Json.MAPPER.writeValueAsBytes(actual)).as(what).isEqualTo(Json.MAPPER.writeValueAsBytes(expected));
        assertThat(SMILE.writeValueAsBytes(actual)).as(what).isEqualTo(SMILE.writeValueAsBytes(expected));
        assertThat(actual.toString()).as(what).isEqualTo(expected.toString());
        return assertSameNodes(actual, expected, what);
    }

    private static void assertFailsAs(byte[] json, IOException expected, TreeReading actualWay) {
        String what = new String(json, StandardCharsets.UTF_8);
        try {
            actualWay.read(json);
        } catch (IOException actual) {
            assertThat(actual.getClass()).as(what).isEqualTo(expected.getClass());
            assertThat(actual.getMessage()).as(what).isEqualTo(expected.getMessage());
            if (expected instanceof JsonProcessingException e) {
                assertThat(((JsonProcessingException) actual).getOriginalMessage()).as(what)
                        .isEqualTo(e.getOriginalMessage());
            }
            return;
        }
        throw new AssertionError("the reference failed but JsonTrees did not: " + what + ": " + expected);
    }

    /** Node by node: the same classes (a packed vector standing for an array node) and the same field order. */
    private static boolean assertSameNodes(JsonNode actual, JsonNode expected, String what) {
        boolean packed = actual instanceof DoubleArrayNode;
        if (packed) {
            assertThat(expected.getClass()).as(what).isEqualTo(ArrayNode.class);
            assertThat(actual.size()).isGreaterThanOrEqualTo(JsonTrees.MIN_PACKED);
        } else {
            assertThat(actual.getClass()).as(what).isEqualTo(expected.getClass());
        }
        if (actual.isObject()) {
            Iterator<String> names = expected.fieldNames();
            for (Iterator<String> it = actual.fieldNames(); it.hasNext(); ) {
                String name = it.next();
                assertThat(name).as(what).isEqualTo(names.next());
                packed |= assertSameNodes(actual.get(name), expected.get(name), what);
            }
            assertThat(names.hasNext()).as(what).isFalse();
        } else if (actual.isArray()) {
            assertThat(actual.size()).as(what).isEqualTo(expected.size());
            for (int i = 0; i < actual.size(); i++) {
                packed |= assertSameNodes(actual.get(i), expected.get(i), what);
            }
        }
        return packed;
    }

    private static boolean same(String json) throws IOException {
        return assertSameAsReadTree(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String floats(int n, int seed) {
        Random r = new Random(seed);
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : ",").append((r.nextFloat() - 0.5f) / 7f);
        }
        return sb.append(']').toString();
    }

    @Test
    void shouldReadEveryRecordedCallAsReadTree() throws IOException {
        List<Path> fixtures = RecordedCalls.files();
        int packed = 0;
        for (Path fixture : fixtures) {
            packed += assertSameAsReadTree(Files.readAllBytes(fixture)) ? 1 : 0;
        }
        assertThat(packed).as("recorded calls with vectors as number arrays").isPositive();
    }

    @Test
    void shouldPackOnlyArraysOfAtLeastSixteenFloats() throws IOException {
        assertThat(same("{\"v\":" + floats(16, 1) + "}")).isTrue();
        assertThat(same("{\"v\":" + floats(1536, 2) + "}")).isTrue();
        assertThat(same("{\"v\":" + floats(5000, 3) + ",\"w\":" + floats(300, 4) + "}")).isTrue();
        assertThat(same("{\"v\":" + floats(15, 5) + "}")).isFalse();
        assertThat(same("{\"v\":[1.5]}")).isFalse();
        assertThat(same("{\"v\":[],\"w\":[[]],\"x\":{}}")).isFalse();
        assertThat(same("{}")).isFalse();
        // one element of another kind anywhere: ordinary nodes
        for (String other : List.of("1", "0", "-3", "\"0.5\"", "null", "true", "false", "[0.5]", "{\"a\":0.5}",
                "\"NaN\"", "\"Infinity\"", "12345678901234567890")) {
            String v = floats(40, 6);
            assertThat(same("{\"v\":[" + other + "," + v.substring(1) + "}")).as(other).isFalse();
            assertThat(same("{\"v\":" + v.substring(0, v.length() - 1) + "," + other + "]}")).as(other).isFalse();
            String[] parts = v.substring(1, v.length() - 1).split(",");
            parts[20] = other;
            assertThat(same("{\"v\":[" + String.join(",", parts) + "]}")).as(other).isFalse();
        }
        // vectors in arrays of vectors, and arrays of vectors after a short float run
        assertThat(same("{\"data\":[" + floats(20, 7) + "," + floats(16, 8) + "," + floats(3, 9) + "]}")).isTrue();
        assertThat(same("{\"data\":[[" + floats(20, 7) + "]," + floats(20, 8) + "],\"x\":[0.5," + floats(17, 10)
                + "]}")).isTrue();
    }

    @Test
    void shouldReadNumbersOfEveryKindAsReadTree() throws IOException {
        for (String n : List.of("0", "-0", "1", "-1", "2147483647", "2147483648", "-2147483648", "-2147483649",
                "9223372036854775807", "9223372036854775808", "-9223372036854775809", "1" + "0".repeat(60),
                "0.0", "-0.0", "1.0", "1e0", "1E5", "1e-5", "1.5e+300", "1e308", "1.7976931348623157e308", "1e309",
                "-1e309", "4.9e-324", "2.4e-324", "1e-400", "2.2250738585072014E-308", "2.2250738585072011E-308",
                "0.1000000000000000055511151231257827021181583404541015625", "3.141592653589793238462643383279",
                "123456789012345678901234567890.5", "0." + "0".repeat(300) + "1", "9".repeat(500) + ".5")) {
            assertThat(same("{\"n\":" + n + ",\"a\":[" + n + "],\"v\":[" + (n + ",").repeat(20) + n + "]}"))
                    .as(n).isEqualTo(n.contains(".") || n.contains("e") || n.contains("E"));
        }
        // too long, malformed, not JSON numbers: the same errors
        for (String n : List.of("1".repeat(1001), "1." + "1".repeat(1001), "01", "-", "1.", ".5", "1e", "+1", "NaN",
                "Infinity", "-Infinity", "0x10", "1.0.0")) {
            same("{\"n\":" + n + "}");
            same("{\"v\":[" + "0.25,".repeat(20) + n + "]}");
            same("{\"v\":[" + n + ",0.25]}");
        }
    }

    @Test
    void shouldKeepReadTreesAnswersForDuplicatesTrailingTokensAndOtherRoots() throws IOException {
        same("{\"a\":1,\"b\":2,\"a\":3}");
        same("{\"a\":" + floats(20, 11) + ",\"b\":2,\"a\":[1,2]}");
        same("{\"a\":[1,2],\"b\":2,\"a\":" + floats(20, 12) + "}");
        same("{\"a\":{\"x\":1},\"a\":{\"y\":2}}");
        for (String trailing : List.of(" x", "}", "]", " {", " [1.0", ",", " {\"a\":1}", "\u0000", " garbage\"")) {
            same("{\"a\":" + floats(20, 13) + "}" + trailing);
        }
        for (String root : List.of("", " ", "null", "1", "1.5", "\"text\"", "\"unterminated", "true", "[1.0]",
                floats(32, 14), "[", "]", "x", "nul", "\uFEFF{\"a\":1}", "  \n{\"a\":[]}  ")) {
            same(root);
        }
    }

    @Test
    void shouldFailAsReadTreeOnBrokenJson() throws IOException {
        for (String broken : List.of("{", "{\"a\"", "{\"a\":", "{\"a\":}", "{\"a\":1,}", "{\"a\" 1}", "{a:1}",
                "{'a':1}", "{\"a\":[1.0,2.0,", "{\"a\":[" + "1.0,".repeat(30), "{\"a\":[1.0, x]}",
                "{\"a\":[1.0 2.0]}", "{\"a\":[1.0,,2.0]}", "{\"a\":[1.0,]}", "{\"a\":[1.0}", "{\"a\":\"\\q\"}",
                "{\"a\":\"line\nbreak\"}", "{\"a\":tru}", "{\"a\":[" + "0.5,".repeat(20) + "\"open]}",
                "{\"a\":1}}", "{\"a\":/* c */1}", "{\"a\":1 // c\n}")) {
            same(broken);
        }
    }

    @Test
    void shouldReadDeepAndMixedNestingAsReadTree() throws IOException {
        for (int depth : new int[] {1, 50, 198, 199, 200, 201, 300}) {
            same("{\"a\":".repeat(depth) + "1" + "}".repeat(depth));
            same("{\"a\":" + "[".repeat(depth) + floats(16, depth) + "]".repeat(depth) + "}");
            same("{\"a\":" + "[{\"b\":".repeat(depth / 2) + floats(16, depth) + "}]".repeat(depth / 2) + "}");
        }
        same("{\"s\":\"Zürich \\u00e9 \\ud83d\\ude00 \\\"quoted\\\" \\n\",\"e\":\"\",\"t\":true,\"f\":false,"
                + "\"n\":null,\"o\":{\"\":[null,{},[]]},\"x\":[\"NaN\",\"Infinity\",\"-0.0\"]}");
    }

    @Test
    void shouldGiveTheDoublesOfReadTreeForManyWaysOfWritingThem() throws IOException, AdapterException {
        Random r = new Random(27);
        List<String> texts = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            double d = switch (i % 5) {
                case 0 -> Double.longBitsToDouble(r.nextLong());
                case 1 -> r.nextGaussian() / 10;
                case 2 -> (double) ((r.nextFloat() - 0.5f) / 3f);
                case 3 -> r.nextDouble() * Math.pow(10, r.nextInt(600) - 300);
                default -> Double.MIN_VALUE * r.nextInt(1000);
            };
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                continue;
            }
            texts.add(switch (i % 4) {
                case 0 -> Double.toString(d);
                case 1 -> Float.toString((float) d).contains("E") || Float.toString((float) d).contains(".")
                        ? Float.toString((float) d) : Double.toString(d);
                case 2 -> String.format(Locale.ROOT, "%.17e", d);
                default -> String.format(Locale.ROOT, "%.25e", d);
            });
        }
        byte[] json = ("{\"v\":[" + String.join(",", texts) + "]}").getBytes(StandardCharsets.UTF_8);
        assertThat(assertSameAsReadTree(json)).isTrue();
        JsonNode packed = JsonTrees.read(json).get("v");
        JsonNode plain = Json.MAPPER.readTree(json).get("v");
        float[] fast = Vectors.fromArray(packed, "v");
        float[] slow = Vectors.fromArray(plain, "v");
        assertThat(fast).hasSize(texts.size());
        for (int i = 0; i < fast.length; i++) {
            assertThat(Float.floatToRawIntBits(fast[i])).as(texts.get(i))
                    .isEqualTo(Float.floatToRawIntBits(slow[i]))
                    .isEqualTo(Float.floatToRawIntBits(plain.get(i).floatValue()));
            assertThat(Double.doubleToRawLongBits(((DoubleArrayNode) packed).doubles()[i]))
                    .isEqualTo(Double.doubleToRawLongBits(plain.get(i).doubleValue()));
        }
    }

    @Test
    void shouldWriteToAPackedVectorAsToAnyArrayNode() throws IOException, ClassNotFoundException {
        byte[] json = ("{\"v\":" + floats(20, 15) + "}").getBytes(StandardCharsets.UTF_8);
        ArrayNode packed = (ArrayNode) JsonTrees.read(json).get("v");
        ArrayNode plain = (ArrayNode) Json.MAPPER.readTree(json).get("v");
        assertThat(packed).isInstanceOf(DoubleArrayNode.class);

        // Java serialization gives an ordinary array node back, as for Jackson's own
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(packed);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isEqualTo(plain).isExactlyInstanceOf(ArrayNode.class);
        }
        assertThat(packed.deepCopy()).isEqualTo(plain).isExactlyInstanceOf(ArrayNode.class);
        List<JsonNode> elements = new ArrayList<>();
        packed.elements().forEachRemaining(elements::add);
        assertThat(elements).containsExactlyElementsOf(plain::elements);

        for (ArrayNode a : List.of(packed, plain)) {
            a.set(3, IntNode.valueOf(7));
            a.add("tail");
            a.insert(0, DoubleNode.valueOf(0.5));
            a.remove(5);
        }
        assertThat(((DoubleArrayNode) packed).doubles()).isNull();
        assertThat(packed).isEqualTo(plain);
        assertThat(Json.MAPPER.writeValueAsString(packed)).isEqualTo(Json.MAPPER.writeValueAsString(plain));
        packed.removeAll();
        assertThat(packed).isEqualTo(Json.MAPPER.createArrayNode());

        ObjectNode tree = (ObjectNode) JsonTrees.read(json);
        ((ArrayNode) tree.get("v")).addNull();
        assertThat(tree.get("v").size()).isEqualTo(21);
        assertThat(tree.get("v").get(20).isNull()).isTrue();
    }

    @Test
    void shouldReadLargeObjectsAndTheirDuplicatesAsReadTree() throws IOException {
        for (int fields : new int[] {CompactLinkedMap.LINEAR_MAX, CompactLinkedMap.LINEAR_MAX + 1, 17, 33, 1000}) {
            StringBuilder json = new StringBuilder("{");
            for (int i = 0; i < fields; i++) {
                json.append(i == 0 ? "" : ",").append("\"f").append(i * 37 % fields).append("\":").append(i);
            }
            same(json + "}");
            same(json + ",\"f0\":" + floats(20, fields) + ",\"f" + (fields - 1) + "\":{\"x\":1},\"new\":2}");
        }
    }

    @Test
    void shouldAnswerAsReadTreesObjectsWhenWrittenTo() throws IOException, ClassNotFoundException {
        StringBuilder wide = new StringBuilder("{");
        for (int i = 0; i < 20; i++) {
            wide.append(i == 0 ? "" : ",").append("\"w").append(i).append("\":").append(i);
        }
        byte[] json = ("{\"a\":1,\"b\":{\"c\":[1,2],\"d\":\"x\"},\"e\":null,\"v\":" + floats(20, 16)
                + ",\"wide\":" + wide + "}}").getBytes(StandardCharsets.UTF_8);
        ObjectNode read = (ObjectNode) JsonTrees.read(json);
        ObjectNode plain = (ObjectNode) Json.MAPPER.readTree(json);
        for (ObjectNode tree : List.of(read, plain)) {
            tree.set("a", IntNode.valueOf(2));
            tree.replace("z", DoubleNode.valueOf(0.5));
            tree.remove("e");
            tree.withObject("/b/deeper").put("k", "v");
            tree.putArray("list").add(1);
            ObjectNode w = (ObjectNode) tree.get("wide");
            w.remove(List.of("w3", "w4", "absent"));
            w.retain("w1", "w2", "w5", "w6", "w7", "w8", "w9", "w10", "w11", "w12", "w19");
            w.without("w2");
            w.put("w1", "again");
            w.setAll(Map.of("w20", IntNode.valueOf(20)));
            w.putIfAbsent("w5", IntNode.valueOf(-5));
            w.properties().removeIf(e -> e.getKey().equals("w11"));
            w.fields().next().setValue(IntNode.valueOf(100));
        }
        assertThat(read).isEqualTo(plain);
        assertThat(plain).isEqualTo(read);
        assertThat(read.hashCode()).isEqualTo(plain.hashCode());
        assertThat(read.toString()).isEqualTo(plain.toString());
        assertThat(Json.MAPPER.writeValueAsBytes(read)).isEqualTo(Json.MAPPER.writeValueAsBytes(plain));
        assertThat(SMILE.writeValueAsBytes(read)).isEqualTo(SMILE.writeValueAsBytes(plain));
        assertSameNodes(read, plain, "written to");
        assertThat(read.deepCopy()).isEqualTo(plain);
        assertThat(read.get("wide").has("w19")).isTrue();
        assertThat(read.get("wide").path("w2").isMissingNode()).isTrue();
        assertThat(read.at("/b/deeper/k").asText()).isEqualTo("v");
        assertThat(read.findValues("k")).isEqualTo(plain.findValues("k"));

        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(read);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isEqualTo(plain);
        }
        read.removeAll();
        assertThat(read).isEqualTo(Json.MAPPER.createObjectNode());
    }

    @Test
    void shouldReadAfterAFailedReadAsReadTree() throws IOException {
        same("{\"a\":{\"b\":{\"c\":1,\"d\":[{\"e\":2,");
        same("{\"a\":{\"b\":1.0e}}");
        same("{\"x\":{\"y\":1},\"z\":2}");
    }
}
